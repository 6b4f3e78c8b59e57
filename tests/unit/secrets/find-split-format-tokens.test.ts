import { describe, expect, it } from "vitest";
import { maskSecretsForDisplay } from "@/lib/secrets/mask-secret-ranges";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

// Built at run time so no literal credential sits in the repository.
const token = ["ghp", "R8nQ2xLm4Pz7Wk1Yt6Vb3Hc9Js0Df5Ga2KeQ"].join("_");
const [head, tail] = [token.slice(0, 18), token.slice(18)];

describe("findSplitFormatTokens (via scanSecrets)", () => {
  it.each([
    ["bold", `Use **${head}**${tail} for the release bot.`],
    ["bold at the end", `Use ${head}**${tail}** for the release bot.`],
    ["italic", `Use *${head}*${tail} for the release bot.`],
    ["code", `Use \`${head}\`${tail} for the release bot.`],
    ["bold with underscores", `Use __${head}__${tail} for the release bot.`],
    ["wholly bold with underscores", `Use __${token}__ for the release bot.`],
    ["wholly italic with an underscore", `Use _${token}_ for the release bot.`],
  ])("finds a token cut by %s without a secret word near it", (_shape, text) => {
    const findings = scanSecrets(text);
    expect(findings).toEqual([expect.objectContaining({ kind: "github-classic-token", start: text.indexOf("ghp_") })]);
    const masked = maskSecretsForDisplay(text);
    expect(masked).not.toContain(head);
    expect(masked).not.toContain(tail);
    expect(masked.endsWith(" for the release bot.")).toBe(true);
  });

  it("flags nothing in markdown that glues emphasis to words and numbers", () => {
    for (const text of ["**Why:** the `__init__` hook runs *before* the **2**nd deploy; 2*3*4 = 24.", "Set **`NODE_ENV`**=production and __`DEBUG`__=0.", "a__b__c and x**2**y"]) {
      expect(scanSecrets(text), text).toEqual([]);
    }
  });
});
