import { findAllMatches } from "./find-all-matches";
import { isPlaceholderToken } from "./is-placeholder-value";
import { RANK_STRUCTURE, type SecretKind, type SecretRange } from "./secret-finding";

type ContextRule = { kind: SecretKind; pattern: RegExp; isToken?: (value: string) => boolean };

// The provider and the kind of credential named, then within a few words on the same line the
// value. The gap may not mention a commit or a hash: "GitHub token fix landed in commit 3f2a…".
const GAP = String.raw`(?:(?!\b(?:commit|sha|hash|revision|rev|merge|checksum|digest|fingerprint)\b)[^\n]){0,24}?`;

function contextRule(kind: SecretKind, provider: string, credential: string, value: string, isToken?: (value: string) => boolean): ContextRule {
  const pattern = new RegExp(`\\b(?:${provider})\\b${GAP}\\b(?:${credential})\\b${GAP}(?<![A-Za-z0-9_\\-])(${value})(?![A-Za-z0-9_\\-])`, "gi");
  return { kind, pattern, isToken };
}

const mixesLettersAndDigits = (value: string): boolean => /[A-Za-z]/.test(value) && /[0-9]/.test(value);

// Older token formats of providers whose current formats find-format-tokens knows by prefix. They
// carry no prefix, so only the words around them say what they are.
const CONTEXT_RULES: ContextRule[] = [
  // GitHub personal access and OAuth tokens before 2021: 40 hex digits.
  contextRule("github-classic-token", "github|gh", "token|tokens|pat|oauth", "[0-9a-f]{40}", mixesLettersAndDigits),
  // Twilio's auth token: 32 hex digits (the account SID beside it starts with AC and is public).
  contextRule("twilio-auth-token", "twilio", "auth[ _-]?token|token|secret", "[0-9a-f]{32}", mixesLettersAndDigits),
  // GitLab personal access tokens before `glpat-` (GitLab 14.5): 20 characters.
  contextRule("gitlab-token", "gitlab", "token|pat", "[A-Za-z0-9_\\-]{20}", mixesLettersAndDigits),
];

/** Tokens in an older, unprefixed format of a known provider, named by the words before them. */
export function findProviderContextTokens(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const { kind, pattern, isToken } of CONTEXT_RULES) {
    for (const match of findAllMatches(pattern, text)) {
      const value = match[1] ?? "";
      if ((isToken && !isToken(value)) || isPlaceholderToken(value)) continue;
      const start = match.index + match[0].length - value.length;
      ranges.push({ kind, start, end: start + value.length, isBounded: true, rank: RANK_STRUCTURE });
    }
  }
  return ranges;
}
