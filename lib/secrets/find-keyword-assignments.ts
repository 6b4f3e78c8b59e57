import { classifySecretKey } from "./classify-secret-key";
import { isKeyFingerprint } from "./is-key-fingerprint";
import { isPlaceholderValue } from "./is-placeholder-value";
import { isPlausiblePassword, isPlausibleToken } from "./is-plausible-secret";
import { RANK_ASSIGNMENT, type SecretKind, type SecretRange } from "./secret-finding";

// Keys are found from the secret-ish word outwards instead of matching every `word:` in the
// text: that keeps a 5 MB file from costing one regex match per YAML key.
const SECRET_WORD = /pass|pwd|pw|secret|token|key|credential|auth|pat(?![a-z])/gi;
// `key: value`, `key = value`, `KEY=value`, `"key": "value"`, `key := value`, `--key=value`.
// `://` and `::` are not separators (URLs, C++/Rust paths).
const SEPARATOR = /["']?[ \t]*(?::=|=>|=|:)(?![=:/])[ \t]*/y;
// `--password hunter2`, `--token abc123` (flag, space, value).
const FLAG_GAP = /[ \t]+(?=[^\s-])/y;
// What may precede a key for it to own the whole rest of its line (.env, YAML, TOML, INI).
const LINE_LEADING = /^[ \t]*(?:[-*][ \t]+|export[ \t]+|set[ \t]+)?$/;
// Where an inline unquoted value stops. `&` ends it only before a query parameter or `&&`: a
// password stated inline ("admin password = Tr0ub4dor&3x") keeps its ampersand.
const INLINE_VALUE = /^(?:[^\s"'`,;)\]}>&|]|&(?![&\s]|[A-Za-z_][\w.-]*=))+/;
const QUOTES = new Set(['"', "'", "`"]);
// A presigned URL's credential parameter is a scope (key id or service account, date, region),
// public by design: its signature is the secret (find-signed-url-signatures.ts).
const PUBLIC_SCOPE_KEY = /^x-(?:amz|goog)-credential$/i;

type ValueSpan = { start: number; end: number; isQuoted: boolean; isBounded: boolean };

/**
 * Values assigned to a secret-ish name: `password: hunter2`, `API_KEY=…`, `"token": "…"`. The
 * range is the value alone, without the name or the quotes.
 */
export function findKeywordAssignments(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  SECRET_WORD.lastIndex = 0;
  for (let word = SECRET_WORD.exec(text); word; word = SECRET_WORD.exec(text)) {
    const keyStart = expandWhile(text, word.index, -1);
    const keyEnd = expandWhile(text, word.index + word[0].length, 1);
    SECRET_WORD.lastIndex = keyEnd;
    const rawKey = text.slice(keyStart, keyEnd);
    const key = rawKey.replace(/^-{1,2}/, "");
    if (PUBLIC_SCOPE_KEY.test(key)) continue;
    // The separator check is the cheap one and rules out most words; classify only after it.
    const valueStart = afterSeparator(text, keyEnd, key !== rawKey);
    const kind = valueStart >= 0 && /^[A-Za-z_]/.test(key) ? classifySecretKey(key) : null;
    if (!kind) continue;
    const lineStart = text.lastIndexOf("\n", keyStart - 1) + 1;
    const span = readValue(text, valueStart, LINE_LEADING.test(text.slice(lineStart, keyStart)), isShellVariable(rawKey, text, keyEnd));
    if (!span) continue;
    const value = text.slice(span.start, span.end);
    if (!isSecretValue(kind, value, span.isQuoted) || isKeyFingerprint(value, text.slice(lineStart, span.start))) continue;
    ranges.push({ kind, start: span.start, end: span.end, isBounded: span.isBounded, rank: RANK_ASSIGNMENT });
  }
  return ranges;
}

function expandWhile(text: string, from: number, step: 1 | -1): number {
  let index = from;
  if (step < 0) {
    while (index > 0 && isKeyChar(text.charCodeAt(index - 1))) index--;
  } else {
    while (index < text.length && isKeyChar(text.charCodeAt(index))) index++;
  }
  return index;
}

// [A-Za-z0-9_.-] by char code: this runs for every character of every key.
function isKeyChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 46 || code === 45
  );
}

function afterSeparator(text: string, keyEnd: number, isFlag: boolean): number {
  for (const pattern of isFlag ? [SEPARATOR, FLAG_GAP] : [SEPARATOR]) {
    pattern.lastIndex = keyEnd;
    const separator = pattern.exec(text);
    if (separator) return keyEnd + separator[0].length;
  }
  return -1;
}

function isSecretValue(kind: SecretKind, value: string, isQuoted: boolean): boolean {
  if (isPlaceholderValue(value)) return false;
  if (kind === "npm-token" && isLegacyNpmCredential(value)) return true;
  if (kind === "basic-auth-password") return isBase64Credentials(value);
  return kind === "password-assignment" ? isPlausiblePassword(value, isQuoted) : isPlausibleToken(value, isQuoted);
}

// `PGPASSWORD=… psql -h db`: a shell variable's unquoted value ends at the first blank.
function isShellVariable(rawKey: string, text: string, keyEnd: number): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(rawKey) && text.charAt(keyEnd) === "=";
}

// npm tokens before the `npm_` prefix (2021) were UUIDs; `_auth` holds base64 of `user:password`.
function isLegacyNpmCredential(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) || isBase64Credentials(value);
}

function isBase64Credentials(value: string): boolean {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value)) return false;
  return /^[^\s:]+:\S{4,}$/.test(Buffer.from(value, "base64").toString("latin1"));
}

function readValue(text: string, valueStart: number, ownsLine: boolean, isShell: boolean): ValueSpan | null {
  const lineEnd = endOfLine(text, valueStart);
  const quote = text.charAt(valueStart);
  if (QUOTES.has(quote)) return readQuoted(text, valueStart, lineEnd, quote);
  if (ownsLine && isShell) {
    const rest = readRestOfLine(text, valueStart, lineEnd);
    const word = rest && /^\S+/.exec(text.slice(rest.start, rest.end));
    return rest && word ? { ...rest, end: rest.start + word[0].length } : rest;
  }
  if (ownsLine) return readRestOfLine(text, valueStart, lineEnd);
  const inline = INLINE_VALUE.exec(text.slice(valueStart, lineEnd));
  if (!inline) return null;
  const value = inline[0].replace(/[.:]+$/, "");
  return { start: valueStart, end: valueStart + value.length, isQuoted: false, isBounded: true };
}

// A quoted value may hold escaped quotes; one left open has no trustworthy end, so it runs to the
// end of the line and is marked unbounded.
function readQuoted(text: string, quoteIndex: number, lineEnd: number, quote: string): ValueSpan {
  for (let index = quoteIndex + 1; index < lineEnd; index++) {
    const char = text.charAt(index);
    if (char === "\\") index++;
    else if (char === quote) return { start: quoteIndex + 1, end: index, isQuoted: true, isBounded: true };
  }
  return { start: quoteIndex + 1, end: lineEnd, isQuoted: true, isBounded: false };
}

// .env and YAML: the value is the whole rest of the line, less a trailing ` # comment` and `,`.
function readRestOfLine(text: string, valueStart: number, lineEnd: number): ValueSpan | null {
  const rest = text.slice(valueStart, lineEnd).replace(/\s+#.*$/, "").replace(/[,;\s]+$/, "");
  if (rest === "") return null;
  return { start: valueStart, end: valueStart + rest.length, isQuoted: false, isBounded: true };
}

function endOfLine(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  const end = newline < 0 ? text.length : newline;
  return text.charAt(end - 1) === "\r" ? end - 1 : end;
}
