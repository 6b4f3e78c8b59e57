import { describe, expect, it } from "vitest";
import { maskSecretRanges, maskSecretsDeep, maskSecretsForDisplay, maskSecretsInQuotedNames, splitRedactionMarkers } from "@/lib/secrets/mask-secret-ranges";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

// Built at run time so no literal credential sits in the repository.
const password = ["Zq8", "vR2pL7xW"].join("-");
const githubToken = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");

describe("maskSecretsForDisplay", () => {
  it("keeps every other character and replaces each value by [REDACTED:kind preview]", () => {
    const text = `Connect with postgres://app:${password}@db.internal:5432/app today.`;
    const masked = maskSecretsForDisplay(text);
    expect(masked).not.toContain(password);
    expect(masked).toMatch(/^Connect with postgres:\/\/app:\[REDACTED:url-password [^\]]*\]@db\.internal:5432\/app today\.$/);
  });

  it("scans the text itself: stale or missing stored findings cannot let a value through", () => {
    const text = `token: ${githubToken}\n`;
    expect(maskSecretsForDisplay(text, [])).not.toContain(githubToken);
    expect(maskSecretsForDisplay(text, [])).toContain("[REDACTED:github-classic-token ghp_…");
  });

  it("masks a token glued to a quoted name's separators in a message, which the text rules read as part of a word", () => {
    const message = `There is no team memory "reference_${githubToken}.md" and no proposal "x-${githubToken}".`;
    expect(maskSecretsForDisplay(message)).toContain(githubToken); // why messages need the name rules
    const masked = maskSecretsInQuotedNames(message);
    expect(masked).not.toContain(githubToken.slice(4, 20));
    expect(masked).toBe(`There is no team memory "reference_[REDACTED:github-classic-token ghp_…${githubToken.slice(-4)}].md" and no proposal "x-[REDACTED:github-classic-token ghp_…${githubToken.slice(-4)}]".`);
    expect(maskSecretsInQuotedNames("Proposal cm4x9 is already approved.")).toBe("Proposal cm4x9 is already approved.");
  });

  it("also masks ranges only another layer found", () => {
    const text = "a harmless-looking value VALUE123 sits here";
    const start = text.indexOf("VALUE123");
    const masked = maskSecretsForDisplay(text, [{ kind: "high-entropy-secret", start, end: start + 8, preview: "…" }]);
    expect(masked).toBe("a harmless-looking value [REDACTED:high-entropy-secret …] sits here");
  });

  it("ignores a stored range that does not fit the text", () => {
    expect(maskSecretsForDisplay("short", [{ kind: "jwt", start: 3, end: 99, preview: "…" }])).toBe("short");
  });
});

describe("maskSecretsDeep", () => {
  it("masks strings at any depth and keeps numbers, booleans and shape", () => {
    const masked = maskSecretsDeep({ session: "s1", excerpt: [`use ${githubToken}`], count: 2, ok: true }) as Record<string, unknown>;
    expect(JSON.stringify(masked)).not.toContain(githubToken);
    expect(masked.count).toBe(2);
    expect(masked.ok).toBe(true);
    expect(masked.session).toBe("s1");
  });
});

describe("splitRedactionMarkers", () => {
  it("finds the markers of a masked text so a page can highlight them", () => {
    const masked = maskSecretsForDisplay(`first ${githubToken} then postgres://app:${password}@db/x`);
    const secrets = splitRedactionMarkers(masked).filter((segment) => segment.secret).map((segment) => segment.secret!.kind);
    expect(secrets).toEqual(["github-classic-token", "url-password"]);
    expect(splitRedactionMarkers(masked).map((segment) => segment.text).join("")).toBe("first  then postgres://app:@db/x");
  });

  it("text without secrets is one plain segment", () => {
    expect(maskSecretRanges("nothing here")).toEqual([{ text: "nothing here", secret: null }]);
    expect(splitRedactionMarkers("nothing here")).toEqual([{ text: "nothing here", secret: null }]);
  });

  it("scan findings and display agree", () => {
    expect(scanSecrets(`k ${githubToken}`)).toHaveLength(1);
  });
});
