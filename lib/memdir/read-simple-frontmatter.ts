import { MAX_YAML_NODES } from "./guard-yaml-aliases";

export type SimpleFrontmatter = { fields: Record<string, string>; status: "ok" | "retried" };

// Plain words YAML reads as a boolean or null, not as text (as a key they would be renamed).
export const YAML_WORD = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;
// Characters that make the C4 retry wrap a value in double quotes.
export const YAML_SPECIAL = /[:#{}[\],&*!|>'"%@`]/;

// Most frontmatter is printable ASCII throughout: one native match then spares a check per character.
const ASCII_PRINTABLE_LINES = /^[\x20-\x7E\n]*$/;
const SPACE = 0x20;
const HASH = 0x23;

/**
 * C4 in one pass for the frontmatter nearly every memory has: lines of `key: value` (or `#`
 * comments) in printable characters, no tab. Expects the alias count checked first. Gives exactly the fields and status of the
 * full reading in frontmatter.ts (YAML, then the retry with special values quoted), or null
 * for any text it cannot vouch for, which then takes that full reading. At 10,000 files the
 * regular expressions of the full reading were a fifth of a scan; this walks each line once.
 *
 * Within that subset:
 * - YAML certainly rejects the text when every value starts with a letter or digit and one of
 *   them holds `: ` before any ` #` comment (a second mapping on one line); then the retry
 *   quotes each value holding a special character, and the others must be plain text.
 * - Otherwise YAML reads it as written when every value is plain text: it starts with a letter,
 *   is no boolean or null word, and holds no `: `, ` #` or trailing `:`.
 */
export function readSimpleFrontmatter(yaml: string): SimpleFrontmatter | null {
  const isAscii = ASCII_PRINTABLE_LINES.test(yaml);
  // Built directly, keys in order: a scan reads 10,000 of these, and per-line objects and a
  // per-character key check were most of its cost in a fresh process (before the JIT warms up).
  const fields: Record<string, string> = {};
  let count = 0;
  let everyValueStartsAlphanumeric = true;
  let hasColonBeforeComment = false;
  for (let lineStart = 0; lineStart < yaml.length; ) {
    let lineEnd = yaml.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = yaml.length;
    const start = lineStart;
    lineStart = lineEnd + 1;
    if (!isAscii && !isPrintableRange(yaml, start, lineEnd)) return null;
    if (start === lineEnd || yaml.charCodeAt(start) === HASH) continue; // a comment or a blank line
    KEY.lastIndex = start;
    if (!KEY.test(yaml) || KEY.lastIndex > lineEnd) return null;
    const keyEnd = KEY.lastIndex - 2; // before `: `
    let valueStart = keyEnd + 2;
    while (valueStart < lineEnd && yaml.charCodeAt(valueStart) === SPACE) valueStart++;
    let valueEnd = lineEnd;
    while (valueEnd > valueStart && yaml.charCodeAt(valueEnd - 1) === SPACE) valueEnd--;
    if (valueStart === valueEnd) return null; // `key:` with nothing after it is YAML's null
    const key = yaml.slice(start, keyEnd);
    if (YAML_WORD.test(key) || key === "__proto__" || Object.hasOwn(fields, key)) return null;
    const value = yaml.slice(valueStart, valueEnd);
    fields[key] = value;
    count++;
    if (!isLetterOrDigit(value.charCodeAt(0))) everyValueStartsAlphanumeric = false;
    const commentAt = value.indexOf(" #");
    if (commentAt === -1 ? value.includes(": ") : value.slice(0, commentAt).includes(": ")) hasColonBeforeComment = true;
  }
  if (count === 0 || count >= MAX_YAML_NODES) return null;
  const isRetried = everyValueStartsAlphanumeric && hasColonBeforeComment;
  for (const key in fields) {
    const value = fields[key]!;
    const isQuotedByRetry = isRetried && YAML_SPECIAL.test(value) && !isQuoted(value);
    if (!isQuotedByRetry && !isPlainText(value)) return null;
  }
  return { fields, status: isRetried ? "retried" : "ok" };
}

// A key and the `: ` after it, matched from a line's start (`lastIndex`): letters, digits,
// `_` and `-`, not starting with a digit or `-`. Key characters exclude `:`, space and newline,
// so a match never runs past its line's `: `.
const KEY = /[A-Za-z_][A-Za-z0-9_-]*: /y;

function isPrintableRange(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    if (!isPrintable(text.charCodeAt(index))) return false;
  }
  return true;
}

/**
 * Characters YAML reads as themselves in any scalar and that a regular expression's `.` and
 * `\S` treat as text: printable, no tab, no surrogate, no byte order mark, no Unicode space or
 * line separator (a value ending in one would be trimmed differently).
 */
function isPrintable(code: number): boolean {
  if (code >= SPACE && code <= 0x7e) return true;
  if (code <= 0xa0 || (code >= 0xd800 && code <= 0xdfff) || code === 0xfeff || code > 0xfffd) return false;
  return !isUnicodeSpace(code);
}

function isUnicodeSpace(code: number): boolean {
  return code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isLetterOrDigit(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39);
}



export function isPlainText(value: string): boolean {
  if (!isLetter(value.charCodeAt(0)) || YAML_WORD.test(value)) return false;
  return !value.includes(": ") && !value.includes(" #") && !value.endsWith(":");
}

export function isQuoted(value: string): boolean {
  return value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]);
}
