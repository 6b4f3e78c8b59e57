import { describe, expect, it } from "vitest";
import { maskSecretsForDisplay } from "@/lib/secrets/mask-secret-ranges";
import { redactSecrets } from "@/lib/secrets/redact-secrets";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

// The black-box tester's texts, built at run time so no literal credential sits in the repository.
const stripeHead = ["sk", "live", "51Hx9kQ2eZvKYlo2C"].join("_");
const stripeTail = "8mN4pR7sT1uV3wX5yA6bD9fG";
const githubHead = ["ghp", "R8nQ2xLm4Pz7"].join("_");
const githubTail = "Wk1Yt6Vb3Hc9Js0Df5Ga2KeQ";
const wrapped = `Sandbox key for the replay job:\n${stripeHead}\n${stripeTail}`;
const bold = `The release bot token is **${githubHead}**${githubTail} (split for readability).`;

describe("a credential cut by a line wrap or markdown emphasis", () => {
  it.each([
    ["wrapped onto the next line", wrapped, [stripeHead, stripeTail]],
    ["partly in bold", bold, [githubHead, githubTail]],
  ])("leaves no piece in clear once %s is redacted or masked", (_shape, text, pieces) => {
    const redacted = redactSecrets(text);
    const masked = maskSecretsForDisplay(text);
    for (const piece of pieces) {
      expect(redacted.text).not.toContain(piece);
      expect(masked).not.toContain(piece);
    }
    expect(redacted.blocked).toEqual([]);
    expect(scanSecrets(redacted.text)).toEqual([]);
  });

  it("reports one finding over the whole credential, named by its provider once the pieces are joined", () => {
    expect(scanSecrets(wrapped)).toEqual([expect.objectContaining({ kind: "stripe-live-key", start: wrapped.indexOf(stripeHead), end: wrapped.length, line: 2 })]);
    const start = bold.indexOf(githubHead);
    expect(scanSecrets(bold)).toEqual([expect.objectContaining({ kind: "github-classic-token", start, end: bold.indexOf(" (split") })]);
    expect(redactSecrets(bold).text).toBe("The release bot token is **[REDACTED:github-classic-token] (split for readability).");
  });

  it.each([
    ["indented", `- key: ${stripeHead}\n    ${stripeTail}\n- rotate it`, "- rotate it"],
    ["in a blockquote", `> key ${stripeHead}\n> ${stripeTail}\n> rotate it`, "> rotate it"],
    ["inside bold", `**${stripeHead}\n${stripeTail}** (wrapped)`, "** (wrapped)"],
    ["over three lines", `${stripeHead}\n${stripeTail}\n${stripeTail.split("").reverse().join("")}\nThanks`, "\nThanks"],
  ])("masks a key wrapped %s up to its last piece and keeps what follows", (_shape, text, rest) => {
    const masked = maskSecretsForDisplay(text);
    expect(masked).not.toContain(stripeTail);
    expect(masked.endsWith(rest)).toBe(true);
  });

  it.each([
    ["prose", "Rotate it on Friday."],
    ["an identifier", "Rotated2024Q1"],
    ["a file name", "README.md"],
    ["a date", "2026-03-05"],
    ["a snake_case name", "snake_case_name2"],
    ["a commit SHA", "3f2a9c1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90"],
    ["a code fence", "```js"],
    ["a bold heading", "**Why:** it was pasted"],
    ["a short word", "ok"],
  ])("does not swallow %s on the line after a token", (_shape, nextLine) => {
    const token = `${stripeHead}${stripeTail}`;
    const text = `${token}\n${nextLine}`;
    expect(scanSecrets(text)).toEqual([expect.objectContaining({ start: 0, end: token.length })]);
    expect(maskSecretsForDisplay(text).endsWith(`\n${nextLine}`)).toBe(true);
  });

  it("keeps two keys on two lines as two findings", () => {
    const second = ["ghp", `${githubTail}${githubHead.slice(4)}`].join("_");
    const text = `${stripeHead}${stripeTail}\n${second}\n`;
    expect(scanSecrets(text).map((finding) => finding.kind)).toEqual(["stripe-live-key", "github-classic-token"]);
  });
});
