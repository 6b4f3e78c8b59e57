import { classifySecretKey } from "./classify-secret-key";
import { isPlaceholderValue } from "./is-placeholder-value";
import { isPlausiblePassword, isPlausibleToken } from "./is-plausible-secret";
import { RANK_ASSIGNMENT, type SecretKind, type SecretRange } from "./secret-finding";

// `key: value`, `key = value`, `KEY=value`, `"key": "value"`, `key := value`, `--key=value`.
// `://` and `::` are not separators (URLs, C++/Rust paths).
const KEY_THEN_SEPARATOR = /(?<![A-Za-z0-9_.-])(?:--?)?([A-Za-z_][A-Za-z0-9_.-]{0,80})["']?[ \t]*(?::=|=>|=|:)(?![=:/])[ \t]*/g;
// `--password hunter2`, `--token abc123` (flag, space, value).
const FLAG_THEN_VALUE = /(?<![\w-])--?(password|passwd|pass|token|secret|api-key|apikey)[ \t]+(?=[^\s-])/gi;
// What may precede a key for it to own the whole rest of its line (.env, YAML, TOML, INI).
const LINE_LEADING = /^[ \t]*(?:[-*][ \t]+|export[ \t]+|set[ \t]+)?$/;
// Where an inline unquoted value stops.
const INLINE_VALUE = /^[^\s"'`,;)\]}>&|]+/;
const QUOTES = new Set(['"', "'", "`"]);

type ValueSpan = { start: number; end: number; isQuoted: boolean; isBounded: boolean };

/**
 * Values assigned to a secret-ish name: `password: hunter2`, `API_KEY=…`, `"token": "…"`. The
 * range is the value alone, without the name or the quotes.
 */
export function findKeywordAssignments(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const pattern of [KEY_THEN_SEPARATOR, FLAG_THEN_VALUE]) {
    for (const match of text.matchAll(pattern)) {
      const key = match[1] ?? "";
      const kind = classifySecretKey(key);
      if (!kind) continue;
      const keyStart = match.index + match[0].indexOf(key);
      const span = readValue(text, match.index + match[0].length, isLineLeading(text, keyStart));
      if (!span || !isSecretValue(kind, text.slice(span.start, span.end), span.isQuoted)) continue;
      ranges.push({ kind, start: span.start, end: span.end, isBounded: span.isBounded, rank: RANK_ASSIGNMENT });
    }
  }
  return ranges;
}

function isSecretValue(kind: SecretKind, value: string, isQuoted: boolean): boolean {
  if (isPlaceholderValue(value)) return false;
  return kind === "password-assignment" ? isPlausiblePassword(value, isQuoted) : isPlausibleToken(value, isQuoted);
}

function isLineLeading(text: string, keyStart: number): boolean {
  const lineStart = text.lastIndexOf("\n", keyStart - 1) + 1;
  return LINE_LEADING.test(text.slice(lineStart, keyStart));
}

function readValue(text: string, valueStart: number, ownsLine: boolean): ValueSpan | null {
  const lineEnd = endOfLine(text, valueStart);
  const quote = text.charAt(valueStart);
  if (QUOTES.has(quote)) return readQuoted(text, valueStart, lineEnd, quote);
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
