import { describe, expect, it } from "vitest";
import { findKeyProblem, isSafeMemoryKey } from "@/lib/memdir/validate-memory-key";

describe("validateMemoryKey", () => {
  it("C12: relative paths with / are accepted, including unicode and spaces", () => {
    expect(["a.md", "team/b.md", "notes/größe café.md"].every(isSafeMemoryKey)).toBe(true);
  });

  it("C12: NUL, backslash, absolute paths and .. are rejected", () => {
    for (const key of ["a\0.md", "team\\a.md", "/etc/passwd", "C:/x.md", "../x.md", "team/../../x.md", "", "a//b.md"]) {
      expect(findKeyProblem(key), key).not.toBeNull();
    }
  });

  it("a drive letter and a colon is named as a Windows drive, an absolute drive path as absolute", () => {
    expect(findKeyProblem("a:b.md")).toBe("the name starts with a drive letter and a colon (a Windows drive)");
    expect(findKeyProblem("C:/x.md")).toBe("the name is an absolute path");
    expect(findKeyProblem("notes/a:b.md")).toBeNull(); // a colon later is the store's portability rule's
  });

  it("C12: .. hidden by URL encoding or NFKC normalisation is rejected", () => {
    for (const key of ["%2e%2e/x.md", "team/%2E%2E/x.md", "\uFF0E\uFF0E/x.md", "a%2fb%5c.md", "%00.md"]) {
      expect(findKeyProblem(key), key).not.toBeNull();
    }
  });

  it("gives the same answer as checking all four forms, on plain names and on names that need decoding", () => {
    // The four-form rule as first written (no shortcut for plain names): the reference.
    const everyForm = (key: string) => {
      let decoded = key;
      try {
        decoded = decodeURIComponent(key);
      } catch {
        // a malformed escape stays as written
      }
      return [key, decoded, key.normalize("NFKC"), decoded.normalize("NFKC")].some((form) =>
        form === "" || form.includes("\0") || form.includes("\\") || form.startsWith("/") || /^[A-Za-z]:/.test(form) || form.split("/").some((segment) => segment === "" || segment === "." || segment === ".."),
      );
    };
    const pieces = ["a", "Z", ".", "..", "/", "\\", ":", "C:", "%", "%2e", "%2F", "%5c", "%00", "%zz", " ", "md", ".md", "\uFF0E", "\u2024", "é", "\0", "~", "-"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let run = 0; run < 20_000; run++) {
      const key = Array.from({ length: 1 + (next() % 6) }, () => pieces[next() % pieces.length]).join("");
      expect(findKeyProblem(key) !== null, JSON.stringify(key)).toBe(everyForm(key));
    }
  });
});
