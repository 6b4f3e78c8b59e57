import { redactSecrets } from "../secrets/redact-secrets";

/** Longest quote kept as evidence: enough to judge, short enough to keep provenance small. */
export const EVIDENCE_CHARS = 600;

/** A redacted, capped quote of a message (redacted before cut, so no secret is half kept). */
export function excerptOf(text: string, maxChars = EVIDENCE_CHARS): string {
  const redacted = redactSecrets(text.trim()).text;
  return redacted.length > maxChars ? `${redacted.slice(0, maxChars)}…` : redacted;
}
