import { describe, expect, it } from "vitest";
import { previewSecret } from "@/lib/secrets/preview-secret";

describe("previewSecret", () => {
  it("keeps a provider prefix and the last four characters", () => {
    expect(previewSecret(`ghp_${"a1B2".repeat(8)}9f2c`)).toBe("ghp_…9f2c");
    expect(previewSecret(`sk-ant-api03-${"x1Y2".repeat(20)}AbAA`)).toBe("sk-ant-api03-…AbAA");
    expect(previewSecret(`AKIA${"Q2W3E4R5T6Y7U2I3"}`)).toBe("AKIA…U2I3");
  });

  it("shows nothing of a short value such as a password", () => {
    expect(previewSecret("hunter2!")).toBe("…");
  });

  it("shows only the header of a key block", () => {
    expect(previewSecret("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----")).toBe("-----BEGIN EC PRIVATE KEY-----…");
  });

  it("shows no more than the last four characters of an unknown long value", () => {
    expect(previewSecret("Zx81Lq0PmW2vN7cR5tY3")).toBe("…5tY3");
  });
});
