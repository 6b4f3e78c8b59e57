import { describe, expect, it } from "vitest";
import { redactSecrets } from "@/lib/secrets/redact-secrets";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

// A classic GitHub token built at run time (no literal token in the repository).
const TOKEN = ["ghp", "C3J27XDCG2LmlZaB4cD5eF6gH7iJ8kL9mN0p"].join("_");

describe("a provider token a line wrap cut before any rule can recognise its first piece", () => {
  it("is found and redacted whole when a narrow terminal wrapped it early", () => {
    const text = `Remember that the webhook signing key is ${TOKEN.slice(0, 18)}\n${TOKEN.slice(18)} in staging.`;
    expect(scanSecrets(text).map((finding) => finding.kind)).toEqual(["github-classic-token"]);
    expect(redactSecrets(text).text).toBe("Remember that the webhook signing key is [REDACTED:github-classic-token] in staging.");
  });

  it("is found across several wrapped lines of a quote, and the next line's word stays", () => {
    const text = `key: **${TOKEN.slice(0, 10)}**\n> ${TOKEN.slice(10, 25)}\n> ${TOKEN.slice(25)}\nnext steps`;
    const redacted = redactSecrets(text).text;
    expect(redacted).toBe("key: **[REDACTED:github-classic-token]\nnext steps");
  });

  it("leaves prose, short identifiers and tokens too short to be one alone", () => {
    for (const text of [
      "the quick brown fox\njumps over the lazy dog",
      "ghp_short\nAbc123 is the build",
      "const handlerName =\n  buildHandler(options)",
      `sha ${"a1b2c3d4".repeat(2)}\n${"E5F6".repeat(3)} done`,
    ]) expect(scanSecrets(text)).toEqual([]);
  });
});
