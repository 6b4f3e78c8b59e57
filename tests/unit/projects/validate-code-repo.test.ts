import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { validateCodeRepo } from "@/lib/projects/validate-project-fields";

function errorOf(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

// Built at run time: no literal credential in the repository.
const azurePat = ["ue6cbyykvyn5ncp7bkttl", "sgtg7dcd32ye4ajzp5djswpwbdsuju6"].join("");
const hexToken = ["9f8e7d6c5b4a39281706", "f5e4d3c2b1a098765432"].join("");
const shortHexToken = ["a1b2c3d4", "e5f6a7b8"].join("");
const gitlabToken = ["glpat", "-", "xQ7vN2mK9pL4rT8wY3zA"].join("");

describe("the code repository setting", () => {
  it("refuses a token used as the URL's user name (Azure DevOps PAT, a 40-hex token), naming the field and never repeating it", () => {
    for (const [url, token] of [
      [`https://${azurePat}@dev.azure.com/acme/checkout/_git/checkout`, azurePat],
      [`https://${hexToken}@github.com/acme/checkout.git`, hexToken],
      [`http://${shortHexToken}@git.example.com/acme/checkout.git`, shortHexToken],
      [`https://${gitlabToken}@gitlab.com/acme/checkout.git`, gitlabToken],
      [`git://${hexToken}@git.example.com/acme/checkout.git`, hexToken],
    ]) {
      const error = errorOf(() => validateCodeRepo(url!));
      expect(error.code, url).toBe("INVALID_INPUT");
      expect(error.details, url).toEqual({ field: "codeRepo" });
      expect(error.message, url).toMatch(/^codeRepo: .*let the server authenticate \(an ssh key, or a git credential helper/);
      expect(error.message, url).not.toContain(token!.slice(4, 16));
    }
  });

  it("refuses a password in any URL, also with the scp-like spelling, without repeating it", () => {
    for (const url of [`https://oauth2:${hexToken}@gitlab.example.com/group/app.git`, `https://x-access-token:${hexToken}@github.com/acme/checkout.git`, `ssh://git:${hexToken}@git.example.com/acme/checkout.git`, `deploy:${hexToken}@git.example.com:acme/checkout.git`, `https://lena:p@ss${hexToken}@github.com/acme/checkout.git`]) {
      const error = errorOf(() => validateCodeRepo(url));
      expect(error.message, url).toMatch(/^codeRepo: the URL holds a password or token; give the URL without it and let the server authenticate/);
      expect(error.message, url).not.toContain(hexToken.slice(4, 16));
    }
  });

  it("keeps the URLs people really clone from: no user, a plain user name, ssh accounts, server paths", () => {
    for (const url of [
      "https://github.com/acme/checkout.git",
      "https://acme@dev.azure.com/acme/checkout/_git/checkout",
      "https://lena.lead@bitbucket.org/acme/checkout.git",
      "https://john_doe@gitlab.example.com/group/app.git",
      "https://deploy-bot@git.example.com/acme/checkout.git",
      "https://dependabot2024@git.example.com/acme/checkout.git",
      "ssh://git@github.com/acme/checkout.git",
      "git@github.com:acme/checkout.git",
      "ssh://APKAEIBAERJR2EXAMPLE@git-codecommit.us-east-2.amazonaws.com/v1/repos/checkout",
      "https://git.example.com/~lena@acme/checkout.git",
      "/srv/code/checkout",
      "file:///srv/code/checkout",
    ]) {
      expect(validateCodeRepo(url), url).toBe(url);
    }
  });
});
