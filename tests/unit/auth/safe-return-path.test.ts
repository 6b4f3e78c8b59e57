import { describe, expect, it } from "vitest";
import { safeReturnPath } from "@/lib/auth/safe-return-path";

describe("safeReturnPath", () => {
  it.each([
    "/memories",
    "/memories?scope=private&folder=-home-omar-src",
    "/review/abc123#evidence",
    "/memories/team/acme-checkout/project_outbox_decision.md",
    "/sign-in?next=%2Fmemories",
  ])("follows the dashboard path %j", (next) => {
    expect(safeReturnPath(next)).toBe(next);
  });

  it.each([
    ["backslash host", "/\\evil.example/x"],
    ["backslash after slashes", "//\\evil.example/x"],
    ["tab between slashes", "/\t/evil.example/x"],
    ["newline between slashes", "/\n/evil.example/x"],
    ["carriage return between slashes", "/\r/evil.example/x"],
    ["space before host", "/ /evil.example/x"],
    ["NUL", "/\u0000/evil.example"],
    ["protocol-relative", "//evil.example/x"],
    ["absolute https", "https://evil.example/x"],
    ["javascript scheme", "javascript:alert(1)"],
    ["no leading slash", "evil.example/x"],
    ["empty", ""],
  ])("sends a %s next to /", (_label, next) => {
    expect(safeReturnPath(next)).toBe("/");
  });

  it("sends a missing or repeated next to /", () => {
    expect(safeReturnPath(undefined)).toBe("/");
    expect(safeReturnPath(["/memories", "//evil.example"])).toBe("/");
  });

  it("never returns a value a browser resolves to another origin", () => {
    const dashboard = "http://127.0.0.1:3000";
    for (const next of ["/\\evil.example/x", "/\t/evil.example/x", "/..//evil.example", "/%2F/evil.example", "/./\\evil.example"]) {
      expect(new URL(safeReturnPath(next), `${dashboard}/sign-in`).origin).toBe(dashboard);
    }
  });
});
