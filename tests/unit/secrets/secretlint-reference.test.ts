import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import { describe, expect, it } from "vitest";
import { runSecretlint } from "@/lib/secrets/run-secretlint";
import { scanSecrets } from "@/lib/secrets/scan-secrets";
import { buildPositiveNotes, createChars, createRandom } from "./build-secret-corpus";

const SEED = 20260307;
const chars = createChars(createRandom(SEED));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";

// The preset as `teammem secrets` once ran it: every rule but the comment filter, AWS ids on.
const PRESET_CONFIG: SecretLintCoreConfig = {
  rules: recommendedRules
    .filter((rule) => rule.meta.id !== "@secretlint/secretlint-rule-filter-comments")
    .map((rule) => ({ id: rule.meta.id, rule, options: rule.meta.id === "@secretlint/secretlint-rule-aws" ? { enableIDScanRule: true } : {} })),
};

describe("the one scanner (teammem secrets and every server check)", () => {
  // Bug 02: the CLI once added the preset's findings to ours, so it found Shopify tokens that every
  // server check let through; those providers are rules of scanSecrets now.
  it("finds a Shopify token, and passes a URL whose password is a placeholder", () => {
    expect(scanSecrets(`Store admin token shpat_${chars(HEX, 32)} for the sync job.`)).toMatchObject([{ kind: "shopify-token" }]);
    expect(scanSecrets("Connect with postgres://user:<password>@localhost/db")).toEqual([]);
  });

  it("cannot be switched off with secretlint-disable comments", () => {
    const token = `shpat_${chars(HEX, 32)}`;
    const text = `<!-- secretlint-disable -->\n${token}\n// secretlint-disable-next-line\n${token}\n`;
    expect(scanSecrets(text)).toHaveLength(2);
  });

  it("reports an AWS secret key by its value, not from its variable name", () => {
    const secret = `${chars(ALNUM, 20)}/${chars(ALNUM, 19)}`;
    const text = `aws_secret_access_key:${secret}`;
    expect(scanSecrets(text)).toMatchObject([{ kind: "aws-secret-access-key", start: text.indexOf(secret), end: text.length }]);
  });
});

describe("secretlint's recommended preset as a reference", () => {
  // The preset is no longer run on user text; it stays the yardstick for the providers it knows.
  it("finds no secret in the positive corpus that scanSecrets misses", async () => {
    for (const note of buildPositiveNotes(SEED)) {
      const findings = scanSecrets(note.text);
      for (const message of await runSecretlint(note.text, PRESET_CONFIG)) {
        const [start, end] = message.range;
        const isCovered = findings.some((finding) => finding.start < end && start < finding.end);
        expect(isCovered, `${note.name}: ${message.messageId} at ${start}`).toBe(true);
      }
    }
  });
});
