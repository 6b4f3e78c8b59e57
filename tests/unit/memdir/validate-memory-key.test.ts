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

  it("C12: .. hidden by URL encoding or NFKC normalisation is rejected", () => {
    for (const key of ["%2e%2e/x.md", "team/%2E%2E/x.md", "\uFF0E\uFF0E/x.md", "a%2fb%5c.md", "%00.md"]) {
      expect(findKeyProblem(key), key).not.toBeNull();
    }
  });
});
