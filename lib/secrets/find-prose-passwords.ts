import { findAllMatches } from "./find-all-matches";
import { isPlaceholderValue } from "./is-placeholder-value";
import { isPlausiblePassword } from "./is-plausible-secret";
import { RANK_ASSIGNMENT, type SecretRange } from "./secret-finding";

// A password stated in a sentence rather than assigned: "the staging db password is Tr0ub4dor&3x",
// "pw for the admin console is …", "use password hunter2-prod-77 for …". The password word, then
// at most a short prepositional phrase ("for the admin console", "of the VPN"), then "is", "was",
// "is now" or "->", or after the phrase ":" or "=" (right after the word they are the keyword
// rule's, which knows URLs and query strings), or nothing at all, then the value. Without the
// phrase rule "the password manager is 1Password" would read as one.
const PROSE_PASSWORD = new RegExp(
  String.raw`\bp(?:ass(?:words?|wd|phrase)|wd|w)` +
    String.raw`(?:(?:[ \t]+(?:for|of|on|to|at|in)(?:[ \t]+[A-Za-z][A-Za-z'-]*){1,4})?[ \t]+(?:(?:is|was|are)(?:[ \t]+(?:now|still))?|->|→)[ \t]+` +
    String.raw`|[ \t]+(?:for|of|on|to|at|in)(?:[ \t]+[A-Za-z][A-Za-z'-]*){1,4}[ \t]*[:=][ \t]*|[ \t]+)` +
    String.raw`(?:"([^"\n]{4,})"|'([^'\n]{4,})'|\x60([^\x60\n]{4,})\x60|([^\s"'\x60<>]{4,}))`,
  "gi",
);
// "creds are admin:Tr0ub4dor&3x", "login: deploy / hunter2-prod-77": a user name, then the password.
const PROSE_CREDENTIALS =
  /\b(?:creds|credentials|login)[ \t]*(?:[ \t](?:are|is)[ \t]+|[:=][ \t]*)[A-Za-z0-9._@-]{2,}(?::|[ \t]+\/[ \t]+)([^\s"'\x60<>]{4,})/gi;
// A sentence's own punctuation after the value is not part of it.
const TRAILING_PUNCTUATION = /[.,;:)\]]+$/;
// An unquoted value of letters and digits only must mix them and be this long to be a password
// stated in prose rather than a word ("password v2", "pw 2024").
const MIN_BARE_LENGTH = 6;

/** Passwords stated in prose; the range is the value alone. */
export function findProsePasswords(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(PROSE_CREDENTIALS, text)) {
    const raw = (match[1] ?? "").replace(TRAILING_PUNCTUATION, "");
    if (!isStatedPassword(raw, false)) continue;
    const start = match.index + match[0].length - (match[1] ?? "").length;
    ranges.push({ kind: "password-assignment", start, end: start + raw.length, isBounded: true, rank: RANK_ASSIGNMENT });
  }
  for (const match of findAllMatches(PROSE_PASSWORD, text)) {
    const quoted = match[1] ?? match[2] ?? match[3];
    const raw = quoted ?? (match[4] ?? "").replace(TRAILING_PUNCTUATION, "");
    const isQuoted = quoted !== undefined;
    if (!isStatedPassword(raw, isQuoted)) continue;
    const valueEnd = match.index + match[0].length - (isQuoted ? 1 : (match[4] ?? "").length - raw.length);
    const start = valueEnd - raw.length;
    ranges.push({ kind: "password-assignment", start, end: valueEnd, isBounded: true, rank: RANK_ASSIGNMENT });
  }
  return ranges;
}

function isStatedPassword(value: string, isQuoted: boolean): boolean {
  if (isPlaceholderValue(value) || !isPlausiblePassword(value, isQuoted)) return false;
  if (isQuoted) return true;
  const hasSymbol = /[^A-Za-z0-9]/.test(value);
  return hasSymbol || (value.length >= MIN_BARE_LENGTH && /[A-Za-z]/.test(value) && /[0-9]/.test(value));
}
