import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import { describe, expect, it } from "vitest";
import { runSecretlint } from "@/lib/secrets/run-secretlint";
import { scanSecrets } from "@/lib/secrets/scan-secrets";
import { scanSecretsWithSecretlint } from "@/lib/secrets/scan-secrets-with-secretlint";
import { buildNegativeNotes } from "./build-negative-corpus";
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

describe("scanSecretsWithSecretlint (teammem secrets)", () => {
  // Bug 02: the CLI added the preset's findings to ours, so it found Shopify tokens that every
  // server check let through, and flagged `postgres://user:<password>@…`, which the server passes.
  it("reports exactly what the server's scanSecrets reports", async () => {
    const shopify = `Store admin token shpat_${chars(HEX, 32)} for the sync job.`;
    const texts = [...buildPositiveNotes(SEED), ...buildNegativeNotes(SEED)].map((note) => note.text);
    for (const text of [...texts, shopify, "Connect with postgres://user:<password>@localhost/db"]) {
      expect(await scanSecretsWithSecretlint(text), text).toEqual(scanSecrets(text));
    }
    expect(scanSecrets(shopify)).toMatchObject([{ kind: "shopify-token" }]);
  });

  it("cannot be switched off with secretlint-disable comments", async () => {
    const token = `shpat_${chars(HEX, 32)}`;
    const text = `<!-- secretlint-disable -->\n${token}\n// secretlint-disable-next-line\n${token}\n`;
    expect(await scanSecretsWithSecretlint(text)).toHaveLength(2);
  });

  it("reports an AWS secret key by its value, not from its variable name", async () => {
    const secret = `${chars(ALNUM, 20)}/${chars(ALNUM, 19)}`;
    const text = `aws_secret_access_key:${secret}`;
    expect(await scanSecretsWithSecretlint(text)).toMatchObject([{ kind: "aws-secret-access-key", start: text.indexOf(secret), end: text.length }]);
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
