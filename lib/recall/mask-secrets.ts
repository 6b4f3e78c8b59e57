import { redactSecrets } from "../secrets/redact-secrets";

const WITHHELD = "[withheld: contains a secret]";

/**
 * "Nothing secret goes to the model": text with a secret finding is sent with the secret replaced
 * by `[REDACTED:<kind>]`. When the scanner cannot tell where a secret ends (an unterminated key
 * block), the whole text is withheld rather than risk sending part of it.
 */
export function maskSecrets(text: string): string {
  const redaction = redactSecrets(text);
  if (redaction.blocked.length > 0) return WITHHELD;
  return redaction.text;
}
