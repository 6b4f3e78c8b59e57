import { detectSecrets, toSecretFinding } from "./detect-secrets";
import type { SecretFinding } from "./secret-finding";

export type RedactionResult = {
  /** The input with every secret range replaced by `[REDACTED:<kind>]`, all else byte for byte. */
  text: string;
  /** Secrets replaced exactly. */
  replaced: SecretFinding[];
  /**
   * Secrets whose end could not be bounded (an unterminated private key block, an unclosed
   * quote). Their replacement runs to the widest possible end, so `text` leaks nothing, but it
   * may have eaten text that was not secret: when this is non-empty, do not offer `text` as a
   * fix; ask the author to remove the secret by hand.
   */
  blocked: SecretFinding[];
};

/** Replaces every secret with `[REDACTED:<kind>]` and says which ranges it could not bound. */
export function redactSecrets(text: string): RedactionResult {
  const secrets = detectSecrets(text);
  const pieces: string[] = [];
  let copiedUpTo = 0;
  for (const secret of secrets) {
    pieces.push(text.slice(copiedUpTo, secret.start), `[REDACTED:${secret.kind}]`);
    copiedUpTo = secret.end;
  }
  pieces.push(text.slice(copiedUpTo));
  return {
    text: pieces.join(""),
    replaced: secrets.filter((secret) => secret.isBounded).map(toSecretFinding),
    blocked: secrets.filter((secret) => !secret.isBounded).map(toSecretFinding),
  };
}
