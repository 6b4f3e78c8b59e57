import { describe, expect, it } from "vitest";
import { maskSecretRanges, maskSecretsInText } from "@/lib/secrets/mask-secret-ranges";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

describe("maskSecretRanges", () => {
  it("keeps every other character and replaces each value by its kind and preview", () => {
    const password = ["Zq8", "vR2pL7xW"].join("-");
    const text = `Connect with postgres://app:${password}@db.internal:5432/app today.`;
    const findings = scanSecrets(text);
    expect(findings.length).toBe(1);
    const masked = maskSecretsInText(text, findings);
    expect(masked).not.toContain(password);
    expect(masked.startsWith("Connect with postgres://app:[")).toBe(true);
    expect(masked.endsWith("@db.internal:5432/app today.")).toBe(true);
    expect(maskSecretRanges(text, findings).filter((segment) => segment.secret).map((segment) => segment.secret!.kind)).toEqual([findings[0]!.kind]);
  });

  it("text without findings is one plain segment", () => {
    expect(maskSecretRanges("nothing here", [])).toEqual([{ text: "nothing here", secret: null }]);
  });
});
