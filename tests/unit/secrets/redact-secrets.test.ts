import { describe, expect, it } from "vitest";
import { redactSecrets } from "@/lib/secrets/redact-secrets";
import { scanSecrets } from "@/lib/secrets/scan-secrets";
import { buildNegativeNotes } from "./build-negative-corpus";
import { buildPositiveNotes, createChars, createRandom } from "./build-secret-corpus";

const SEED = 20260306;
const positives = buildPositiveNotes(SEED);
const chars = createChars(createRandom(SEED + 1));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// Any 8-character window of a secret surviving redaction counts as a leaked fragment.
function leakedFragment(text: string, secret: string): string | null {
  const width = Math.min(8, secret.length);
  for (let index = 0; index + width <= secret.length; index++) {
    const window = secret.slice(index, index + width);
    if (text.includes(window)) return window;
  }
  return null;
}

describe("redactSecrets (T3)", () => {
  it.each(positives.map((note) => [note.name, note] as const))("leaves no fragment of the secret in %s", (_name, note) => {
    const result = redactSecrets(note.text);
    for (const secret of note.secrets) expect(leakedFragment(result.text, secret.value)).toBeNull();
    expect(result.blocked).toEqual([]);
    expect(result.replaced).toHaveLength(note.secrets.length);
    expect(scanSecrets(result.text)).toEqual([]);
  });

  it("keeps everything around the secret byte for byte", () => {
    const note = positives.find((candidate) => candidate.secrets.length === 4);
    if (!note) throw new Error("corpus has no multi-secret note");
    let expected = note.text;
    for (const secret of [...note.secrets].reverse()) {
      expected = `${expected.slice(0, secret.start)}[REDACTED:${secret.kind}]${expected.slice(secret.end)}`;
    }
    expect(redactSecrets(note.text).text).toBe(expected);
  });

  it("returns a text without secrets unchanged", () => {
    for (const note of buildNegativeNotes(SEED)) {
      expect(redactSecrets(note.text)).toEqual({ text: note.text, replaced: [], blocked: [] });
    }
  });

  it("redacts the value of an assignment, not the name or the quotes", () => {
    const secret = chars(ALNUM, 12) + "9!";
    expect(redactSecrets(`{"password": "${secret}"}`).text).toBe('{"password": "[REDACTED:password-assignment]"}');
  });

  it("blocks an unterminated private key instead of redacting part of it", () => {
    const material = `MIIEpAIBAAKCAQEA${chars(ALNUM, 48)}\n${chars(ALNUM, 64)}`;
    const text = `Deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n${material}\n`;
    const result = redactSecrets(text);
    expect(result.blocked).toMatchObject([{ kind: "private-key", start: 12, end: text.length, line: 2, column: 1 }]);
    expect(result.replaced).toEqual([]);
    expect(result.text).toBe("Deploy key:\n[REDACTED:private-key]");
  });

  it("blocks a quoted value whose closing quote is missing", () => {
    const secret = chars(ALNUM, 20) + "7";
    const result = redactSecrets(`client_secret = "${secret}\nnext line`);
    expect(result.blocked).toMatchObject([{ kind: "secret-assignment" }]);
    expect(result.text).toBe('client_secret = "[REDACTED:secret-assignment]\nnext line');
  });
});
