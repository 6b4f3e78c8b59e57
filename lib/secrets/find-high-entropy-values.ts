import { findAllMatches } from "./find-all-matches";
import { isPlaceholderToken } from "./is-placeholder-value";
import { isKeyFingerprint } from "./is-key-fingerprint";
import { isNonSecretShape } from "./is-plausible-secret";
import { isHighEntropy, readsAsWords } from "./measure-entropy";
import { RANK_ENTROPY, type SecretRange } from "./secret-finding";

// A secret-ish word (not `public key`), then within 40 characters on the same line a long run of token characters.
// The run may not touch `/` or `.` on its left, nor a `.` that goes on (`.md`, `.com`) on its
// right, so URL paths and file names stay out; a full stop ending the sentence is not the value's.
const KEYWORD_THEN_CANDIDATE =
  /(?<!(?:public|publishable)[ _-]?)(?:api[ _-]?key|access[ _-]?key|secret|token|passw(?:or)?d|credentials?|bearer|auth(?:orization)?|private[ _-]?key|signing[ _-]?key|key)[^\n]{0,40}?(?<![A-Za-z0-9+/_.-])([A-Za-z0-9+/_-]{20,}={0,2})(?![A-Za-z0-9+/=_-]|\.[A-Za-z0-9+/=_-])/gi;

/**
 * Random-looking strings next to a secret-ish word (`the deploy key is 9fQ…`). Hex-only and
 * single-case strings are skipped: commit SHAs and hashes are hex and sit next to such words.
 */
export function findHighEntropyValues(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(KEYWORD_THEN_CANDIDATE, text)) {
    const value = match[1] ?? "";
    if (!isRandomToken(value)) continue;
    const start = match.index + match[0].length - value.length;
    if (isKeyFingerprint(value, text.slice(text.lastIndexOf("\n", start - 1) + 1, start))) continue;
    ranges.push({ kind: "high-entropy-secret", start, end: start + value.length, isBounded: true, rank: RANK_ENTROPY });
  }
  return ranges;
}

function isRandomToken(value: string): boolean {
  const hasMixedClasses = /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9]/.test(value);
  if (!hasMixedClasses || value.startsWith("AAAA")) return false; // AAAA…: an SSH public key body
  if (isPlaceholderToken(value) || isNonSecretShape(value)) return false;
  return !readsAsWords(value) && isHighEntropy(value);
}
