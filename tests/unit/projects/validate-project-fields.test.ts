import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseStoredRepoUrls, resolveProjectId, validateProjectName, validateRepoUrls } from "@/lib/projects/validate-project-fields";

function errorOf(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("project fields", () => {
  it("normalises repository URLs, drops duplicates and names the bad entry by index", () => {
    expect(validateRepoUrls(["git@github.com:acme/checkout.git", "https://github.com/acme/checkout", "https://gitlab.example.com/a/b/"])).toEqual([
      "github.com/acme/checkout",
      "gitlab.example.com/a/b",
    ]);
    const error = errorOf(() => validateRepoUrls(["github.com/acme/checkout", "https://user:s3cr3t-token@nohost"]));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^repoUrls\.1: /);
    expect(error.message).not.toContain("s3cr3t-token");
    expect(error.details).toEqual({ field: "repoUrls.1" });
  });

  it("refuses a repository URL or an id holding a token, and the message does not repeat it", () => {
    const token = ["ghp", "_", "hGAkWvj7FAc9QeWJ", "KY40uvSwMFLZDe1f8rES"].join(""); // built at run time: no literal credential in the repository
    for (const url of [`github.com/acme/${token}`, `https://github.com/acme/${token}.git`, `git@github.com:acme/checkout_${token}.git`]) {
      const error = errorOf(() => validateRepoUrls(["github.com/acme/checkout", url]));
      expect(error.message, url).toMatch(/^repoUrls\.1: the URL holds what looks like a credential \(github-classic-token\)/);
      expect(error.message).not.toContain(token.slice(4));
    }
    const error = errorOf(() => resolveProjectId({ id: `proj-${token.toLowerCase().replace("_", "-")}-${token}`, repoUrls: [], name: "X" }));
    expect(error.message).toMatch(/^id: it holds what looks like a credential/);
    expect(error.message).not.toContain(token.slice(4));
  });

  it("uses the given id, else derives one; a bad id is refused naming the field", () => {
    expect(resolveProjectId({ id: "payments", repoUrls: ["github.com/acme/checkout"], name: "X" })).toBe("payments");
    expect(resolveProjectId({ repoUrls: ["github.com/acme/checkout"], name: "X" })).toBe("acme-checkout");
    expect(resolveProjectId({ id: "", repoUrls: [], name: "Acme Payments" })).toBe("acme-payments");
    expect(errorOf(() => resolveProjectId({ id: "Not Valid", repoUrls: [], name: "X" })).message).toMatch(/^id: /);
    expect(errorOf(() => resolveProjectId({ repoUrls: [], name: "???" })).message).toMatch(/^id: none given/);
  });

  it("trims names and refuses empty, overlong or multi-line ones", () => {
    expect(validateProjectName("  Checkout  ")).toBe("Checkout");
    for (const bad of ["", "   ", "x".repeat(201), "Checkout\nApproved-by: someone"]) {
      expect(errorOf(() => validateProjectName(bad)).message, bad).toMatch(/^name: /);
    }
  });

  it("refuses a name with a bidirectional override or a zero-width space, naming the character", () => {
    expect(errorOf(() => validateProjectName("Checkout \u202Eyrotsih")).message).toBe("name: holds an invisible or control character (U+202E); type the name again without it.");
    expect(errorOf(() => validateProjectName("Check\u200Bout")).message).toMatch(/U\+200B/);
    expect(validateProjectName("Café 🚀")).toBe("Café 🚀");
    // What shows as a blank or nothing, and the line separators; an emoji's presentation selector stays.
    expect(errorOf(() => validateProjectName("Check\u3164out")).message).toMatch(/U\+3164/);
    expect(errorOf(() => validateProjectName("Checkout\u2028Approved-by: someone")).message).toBe("name: must be one line.");
    expect(validateProjectName("Checkout ❤\uFE0F")).toBe("Checkout ❤\uFE0F");
  });

  it("reads a damaged repoUrls column as no URLs", () => {
    expect(parseStoredRepoUrls('["github.com/a/b"]')).toEqual(["github.com/a/b"]);
    expect(parseStoredRepoUrls("not json")).toEqual([]);
    expect(parseStoredRepoUrls('{"a":1}')).toEqual([]);
  });
});
