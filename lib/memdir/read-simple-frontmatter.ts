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
const COLON = 0x3a;

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
  const keys: string[] = [];
  const values: string[] = [];
  let everyValueStartsAlphanumeric = true;
  let hasColonBeforeComment = false;
  for (let lineStart = 0; lineStart < yaml.length; ) {
    let lineEnd = yaml.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = yaml.length;
    const line = readLine(yaml, lineStart, lineEnd, isAscii);
    lineStart = lineEnd + 1;
    if (line === null) return null;
    if (line === COMMENT_OR_BLANK) continue;
    if (YAML_WORD.test(line.key) || line.key === "__proto__" || keys.includes(line.key)) return null;
    keys.push(line.key);
    values.push(line.value);
    if (!isLetterOrDigit(line.value.charCodeAt(0))) everyValueStartsAlphanumeric = false;
    const commentAt = line.value.indexOf(" #");
    if ((commentAt === -1 ? line.value : line.value.slice(0, commentAt)).includes(": ")) hasColonBeforeComment = true;
  }
  if (keys.length === 0 || keys.length >= MAX_YAML_NODES) return null;
  const isRetried = everyValueStartsAlphanumeric && hasColonBeforeComment;
  const fields: Record<string, string> = {};
  for (let index = 0; index < keys.length; index++) {
    const value = values[index]!;
    const isQuotedByRetry = isRetried && YAML_SPECIAL.test(value) && !isQuoted(value);
    if (!isQuotedByRetry && !isPlainText(value)) return null;
    fields[keys[index]!] = value;
  }
  return { fields, status: isRetried ? "retried" : "ok" };
}

const COMMENT_OR_BLANK = Symbol("comment-or-blank");

/** One line as `key: value` (value trimmed of trailing spaces), a comment or blank, or null. */
function readLine(yaml: string, start: number, end: number, isAscii: boolean): { key: string; value: string } | typeof COMMENT_OR_BLANK | null {
  for (let index = start; !isAscii && index < end; index++) {
    if (!isPrintable(yaml.charCodeAt(index))) return null;
  }
  if (start === end || yaml.charCodeAt(start) === HASH) return COMMENT_OR_BLANK;
  let keyEnd = start;
  if (!isKeyStart(yaml.charCodeAt(keyEnd))) return null;
  while (++keyEnd < end && isKeyPart(yaml.charCodeAt(keyEnd)));
  if (yaml.charCodeAt(keyEnd) !== COLON || yaml.charCodeAt(keyEnd + 1) !== SPACE) return null;
  let valueStart = keyEnd + 2;
  while (valueStart < end && yaml.charCodeAt(valueStart) === SPACE) valueStart++;
  let valueEnd = end;
  while (valueEnd > valueStart && yaml.charCodeAt(valueEnd - 1) === SPACE) valueEnd--;
  if (valueStart === valueEnd) return null; // `key:` with nothing after it is YAML's null
  return { key: yaml.slice(start, keyEnd), value: yaml.slice(valueStart, valueEnd) };
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

function isKeyStart(code: number): boolean {
  return isLetter(code) || code === 0x5f;
}

function isKeyPart(code: number): boolean {
  return isLetterOrDigit(code) || code === 0x5f || code === 0x2d;
}

export function isPlainText(value: string): boolean {
  if (!isLetter(value.charCodeAt(0)) || YAML_WORD.test(value)) return false;
  return !value.includes(": ") && !value.includes(" #") && !value.endsWith(":");
}

export function isQuoted(value: string): boolean {
  return value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]);
}
