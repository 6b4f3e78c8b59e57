import { describe, expect, it } from "vitest";
import { scanSecrets } from "@/lib/secrets/scan-secrets";
import { scanSecretsWithSecretlint } from "@/lib/secrets/scan-secrets-with-secretlint";
import { buildNegativeNotes } from "./build-negative-corpus";
import { buildPositiveNotes, createChars, createRandom } from "./build-secret-corpus";

const SEED = 20260307;
const chars = createChars(createRandom(SEED));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";

describe("scanSecretsWithSecretlint", () => {
  it("finds every corpus secret with the same ranges as scanSecrets", async () => {
    for (const note of buildPositiveNotes(SEED)) {
      expect(await scanSecretsWithSecretlint(note.text), note.name).toEqual(scanSecrets(note.text));
    }
  });

  it("flags none of the negatives", async () => {
    for (const note of buildNegativeNotes(SEED)) expect(await scanSecretsWithSecretlint(note.text), note.name).toEqual([]);
  });

  it("adds providers only secretlint knows (Shopify), under a secretlint- kind", async () => {
    const token = `shpat_${chars(HEX, 32)}`;
    const text = `Store admin token ${token} for the sync job.`;
    expect(scanSecrets(text)).toEqual([]);
    const start = text.indexOf(token);
    expect(await scanSecretsWithSecretlint(text)).toMatchObject([{ kind: "secretlint-shopify", start, end: start + token.length }]);
  });

  it("cannot be switched off with secretlint-disable comments", async () => {
    const token = `shpat_${chars(HEX, 32)}`;
    const text = `<!-- secretlint-disable -->\n${token}\n// secretlint-disable-next-line\n${token}\n`;
    expect(await scanSecretsWithSecretlint(text)).toHaveLength(2);
  });

  it("reports an AWS secret key by its value, not from its variable name", async () => {
    const secret = `${chars(ALNUM, 20)}/${chars(ALNUM, 19)}`;
    // A form our own rules do not read, so the range comes from secretlint and is corrected.
    const text = `aws_secret_access_key:${secret}`;
    const findings = await scanSecretsWithSecretlint(text);
    expect(findings).toMatchObject([{ kind: "aws-secret-access-key", start: text.indexOf(secret), end: text.length }]);
  });
});
