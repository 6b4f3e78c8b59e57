import { findAllMatches } from "./find-all-matches";
import { isPlaceholderToken } from "./is-placeholder-value";
import { RANK_STRUCTURE, type SecretKind, type SecretRange } from "./secret-finding";

// A rule names one kind, or picks it from the match when one pass finds two of a provider's.
type KindOf = SecretKind | ((match: RegExpExecArray) => SecretKind | null);
type ContextRule = { kind: KindOf; pattern: RegExp; isToken?: (value: string) => boolean };

// The provider and the kind of credential named, then within a few words on the same line the
// value. The gap may not mention a commit or a hash: "GitHub token fix landed in commit 3f2a…",
// "the Datadog app key rotation was fixed in 3f2a…".
const GAP = String.raw`(?:(?!\b(?:commit|sha|hash|revision|rev|merge|checksum|digest|fingerprint|fix|fixed|landed)\b)[^\n]){0,24}?`;
// A word's edges: in prose, and also in names that join words with `_` (`DD_API_KEY=…`).
const PROSE_EDGES = { start: "\\b", end: "\\b" };
const NAME_EDGES = { start: "(?<![A-Za-z0-9])", end: "(?![A-Za-z0-9])" };

function contextRule(kind: KindOf, provider: string, credential: string, value: string, isToken?: (value: string) => boolean, edges = PROSE_EDGES): ContextRule {
  const { start, end } = edges;
  const pattern = new RegExp(`${start}(?:${provider})${end}${GAP}${start}(?:${credential})${end}${GAP}(?<![A-Za-z0-9_\\-])(?<value>${value})(?![A-Za-z0-9_\\-])`, "gi");
  return { kind, pattern, isToken };
}

const mixesLettersAndDigits = (value: string): boolean => /[A-Za-z]/.test(value) && /[0-9]/.test(value);

// Datadog's API key is 32 hex digits, its application key 40; the words must agree with the length.
function datadogKind(match: RegExpExecArray): SecretKind | null {
  const length = match.groups?.value?.length;
  if (match.groups?.api !== undefined) return length === 32 ? "datadog-api-key" : null;
  return length === 40 ? "datadog-app-key" : null;
}

// Older token formats of providers whose current formats find-format-tokens knows by prefix. They
// carry no prefix, so only the words around them say what they are.
const CONTEXT_RULES: ContextRule[] = [
  // GitHub personal access and OAuth tokens before 2021: 40 hex digits.
  contextRule("github-classic-token", "github|gh", "token|tokens|pat|oauth", "[0-9a-f]{40}", mixesLettersAndDigits),
  // Twilio's auth token: 32 hex digits. The account SID beside it (AC + 32 hex) is public, and
  // names Twilio as well as the word does: the console shows "account AC…, auth token …", which
  // puts the word too far from the token (bug 03).
  contextRule("twilio-auth-token", "twilio|AC[0-9a-f]{32}", "auth[ _-]?token|token|secret", "[0-9a-f]{32}", mixesLettersAndDigits),
  // GitLab personal access tokens before `glpat-` (GitLab 14.5): 20 characters.
  contextRule("gitlab-token", "gitlab", "token|pat", "[A-Za-z0-9_\\-]{20}", mixesLettersAndDigits),
  // Datadog's API and application keys: no prefix at all, and hex-only values are left alone by
  // the entropy rule (commit SHAs), so only these words find them. One rule for both: each rule
  // is a pass over every note.
  contextRule(datadogKind, "datadog|dd", "(?<api>api)[ _-]?key|app(?:lication)?[ _-]?key", "[0-9a-f]{40}|[0-9a-f]{32}", mixesLettersAndDigits, NAME_EDGES),
];

/** Tokens in an older, unprefixed format of a known provider, named by the words before them. */
export function findProviderContextTokens(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const { kind, pattern, isToken } of CONTEXT_RULES) {
    for (const match of findAllMatches(pattern, text)) {
      const value = match.groups?.value ?? "";
      const matchKind = typeof kind === "function" ? kind(match) : kind;
      if (!matchKind || (isToken && !isToken(value)) || isPlaceholderToken(value)) continue;
      const start = match.index + match[0].length - value.length;
      ranges.push({ kind: matchKind, start, end: start + value.length, isBounded: true, rank: RANK_STRUCTURE });
    }
  }
  return ranges;
}
