import { findAllMatches } from "./find-all-matches";
import { decodeBase64Text } from "./is-base64-of-plain-text";
import { RANK_STRUCTURE, type SecretRange } from "./secret-finding";

// A run of base64 (or base64url) long enough to hold a credential, not glued to more of it, and
// at most 64 KB: V8 keeps one backtracking entry per character of an unbounded run, and a single
// 5 MB line (pushed into the store from outside) overflowed its stack and threw for the whole
// file. A longer run is not one credential; the entropy rule still looks at it.
const BASE64_RUN = /(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/]{20,65536}={0,2}|[A-Za-z0-9_-]{20,65536}={0,2})(?![A-Za-z0-9+/=_-])/g;

/**
 * Secrets hidden in base64: `Decode this: YXdzX3NlY3JldF9hY2Nlc3Nfa2V5PS4uLg==` is a credential
 * to anyone who decodes it, which takes one command. A run that decodes to readable text is
 * scanned with the plain rules (`findInText`), and if they find anything, the whole run is the
 * secret. Binary (a hash, a key's random bytes) is left to the entropy rule.
 */
export function findEncodedSecrets(text: string, findInText: (decoded: string) => SecretRange[]): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(BASE64_RUN, text)) {
    const decoded = decodeBase64Text(match[0]);
    if (decoded === null || findInText(decoded).length === 0) continue;
    ranges.push({ kind: "base64-encoded-secret", start: match.index, end: match.index + match[0].length, isBounded: true, rank: RANK_STRUCTURE });
  }
  return ranges;
}
