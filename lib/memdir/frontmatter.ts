import matter from "gray-matter";
import { countAliasReferences, exceedsNodeBudget, MAX_YAML_ALIASES, MAX_YAML_CHARS } from "./guard-yaml-aliases";
import { splitFrontmatter } from "./split-frontmatter";

/** F2: the closed taxonomy. Anything else is not a type. */
export const MEMORY_TYPES = ["user", "feedback", "project", "reference"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** C4: only the first 30 lines are read when scanning. */
export const FRONTMATTER_MAX_LINES = 30;

/**
 * How the frontmatter was read. `retried` parsed only after quoting values (C4); everything
 * from `unclosed` on leaves the fields empty, which keeps the file usable but worth reporting.
 */
export type FrontmatterStatus = "ok" | "retried" | "none" | "unclosed" | "invalid-yaml" | "not-object" | "alias-limit" | "too-large";

export type ParsedFrontmatter = {
  fields: Record<string, unknown>;
  /** The text after the closing `---` line (normalised: no BOM, LF line ends). */
  body: string;
  status: FrontmatterStatus;
};

export type MemoryHeader = {
  name: string | null;
  description: string | null;
  /** Null when missing or not exactly one of the four values (legacy files stay usable, C4). */
  type: MemoryType | null;
  /** Every frontmatter field as parsed, including unknown ones (F1 keeps them). */
  fields: Record<string, unknown>;
  status: FrontmatterStatus;
};

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === "string" && (MEMORY_TYPES as readonly string[]).includes(value);
}

/** C4: strip a UTF-8 BOM and turn CRLF into LF before anything else looks at the text. */
export function normaliseText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
}

/**
 * Reads a memory's frontmatter the way Claude Code does (C4): the file must start with `---`;
 * a YAML error or a non-object result counts as empty frontmatter, never an exception.
 */
export function parseMemoryHeader(text: string): MemoryHeader {
  const { fields, status } = parseFrontmatter(text);
  return {
    name: asText(fields.name),
    description: asText(fields.description),
    type: isMemoryType(fields.type) ? fields.type : null,
    fields,
    status,
  };
}

/** C4 in full: split, parse, retry once with quoted values, and bound alias expansion. */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const block = splitFrontmatter(normaliseText(text));
  if (block.kind !== "closed") return { fields: {}, body: block.body, status: block.kind };
  const empty = (status: FrontmatterStatus): ParsedFrontmatter => ({ fields: {}, body: block.body, status });
  if (block.yaml.length > MAX_YAML_CHARS) return empty("too-large");
  if (countAliasReferences(block.yaml) > MAX_YAML_ALIASES) return empty("alias-limit");
  let status: FrontmatterStatus = "ok";
  const lines = block.yaml.split("\n");
  let data = hasCertainYamlError(lines) ? YAML_ERROR : (readFlatFrontmatter(lines, { quoted: false }) ?? loadYaml(block.yaml));
  if (data === YAML_ERROR) {
    status = "retried";
    data = readFlatFrontmatter(lines, { quoted: true }) ?? loadYaml(quoteSpecialValues(block.yaml));
  }
  if (data === YAML_ERROR) return empty("invalid-yaml");
  if (data === null || data === undefined) return empty("ok");
  if (!isPlainObject(data)) return empty("not-object");
  if (exceedsNodeBudget(data)) return empty("alias-limit");
  return { fields: data, body: block.body, status };
}

const YAML_ERROR = Symbol("yaml-error");

function loadYaml(yaml: string): unknown {
  try {
    // An options object keeps gray-matter from caching results by content (memory grows forever).
    return matter(`---\n${yaml}---\n`, {}).data;
  } catch {
    return YAML_ERROR; // C4: the caller retries once, then treats the frontmatter as empty
  }
}

// C4: values like `description: fix: the "a" case #2` break YAML; Claude Code quotes simple
// top-level `key: value` lines whose value holds a YAML-special character and tries again.
const SIMPLE_LINE = /^([A-Za-z_][\w-]*):[ \t]+(.*\S)[ \t]*$/;
const YAML_SPECIAL = /[:#{}[\],&*!|>'"%@`]/;

// A plain value can start with these and still be read as plain text (no quote, tag, anchor,
// alias, flow collection, block scalar, directive or sequence indicator).
const PLAIN_VALUE_START = /^[A-Za-z0-9]/;
const COMMENT_START = /[ \t]#/;

/**
 * C4 fast path: true only when YAML certainly rejects the text, so the first parse can be
 * skipped. The common case is a description like `billing: invoices run nightly`: a plain
 * value holding ": " is a second mapping on one line, which YAML refuses. Building and
 * throwing that exception cost 9 % of a scan. Claimed only for flat frontmatter (every line
 * `key: value`, blank, or a comment) whose values start as plain text; anything else takes
 * the first parse as before, so the fields and status never differ from parse-then-retry.
 */
export function isCertainYamlError(yaml: string): boolean {
  return hasCertainYamlError(yaml.split("\n"));
}

function hasCertainYamlError(lines: readonly string[]): boolean {
  let hasColonInPlainValue = false;
  for (const line of lines) {
    if (line === "" || line.startsWith("#")) continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match) return false;
    const value = match[2] ?? "";
    if (!PLAIN_VALUE_START.test(value)) return false;
    const commentAt = value.search(COMMENT_START);
    if ((commentAt === -1 ? value : value.slice(0, commentAt)).includes(": ")) hasColonInPlainValue = true;
  }
  return hasColonInPlainValue;
}

// The fast path's own strict reading of a flat line: spaces only (no tabs), one value.
const FLAT_LINE = /^([A-Za-z_][\w-]*): +(\S(?:.*\S)?) *$/;
// Characters YAML reads as themselves in any scalar: printable, no tab, no lone surrogate, no BOM.
const PRINTABLE_TEXT = /^[\x20-\x7E\u00A0-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
// Plain words YAML reads as a boolean or null, not as text (as a key they would be renamed).
const YAML_WORD = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;

/**
 * C4 fast path: the frontmatter nearly every memory has, flat `key: text` lines, read without
 * YAML (gray-matter and js-yaml were a sixth of a scan). Returns the fields exactly as YAML
 * gives them (after quoting special values when `quoted`, as the retry does), or null for
 * anything it cannot vouch for: then YAML decides, as before. Each value it accepts is text
 * YAML reads as that same string: a plain value starting with a letter that is no boolean or
 * null word and holds no `: `, ` #` or trailing `:`, or (when quoted) a value the retry would
 * wrap in double quotes, whose escapes give back exactly the text.
 */
function readFlatFrontmatter(lines: readonly string[], options: { quoted: boolean }): Record<string, unknown> | null {
  const fields: Record<string, unknown> = {};
  let hasField = false;
  for (const line of lines) {
    if (line === "") continue;
    if (!PRINTABLE_TEXT.test(line)) return null;
    if (line.startsWith("#")) continue;
    const match = FLAT_LINE.exec(line);
    if (!match) return null;
    const [, key = "", value = ""] = match;
    if (YAML_WORD.test(key) || key === "__proto__" || Object.hasOwn(fields, key)) return null;
    const isQuotedByRetry = options.quoted && YAML_SPECIAL.test(value) && !isQuoted(value);
    if (!isQuotedByRetry && !isPlainText(value)) return null;
    fields[key] = value;
    hasField = true;
  }
  return hasField ? fields : null;
}

function isPlainText(value: string): boolean {
  if (!/^[A-Za-z]/.test(value) || YAML_WORD.test(value)) return false;
  return !value.includes(": ") && !value.includes(" #") && !value.endsWith(":");
}

function quoteSpecialValues(yaml: string): string {
  return yaml
    .split("\n")
    .map((line) => {
      const match = SIMPLE_LINE.exec(line);
      if (!match) return line;
      const [, key, value = ""] = match;
      if (!YAML_SPECIAL.test(value) || isQuoted(value)) return line;
      return `${key}: "${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
    })
    .join("\n");
}

function isQuoted(value: string): boolean {
  return value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]);
}

function asText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

// gray-matter hands its options to js-yaml's safeDump; lineWidth -1 keeps values on one line
// because Claude Code's fallback parser only understands `key: value`.
const DUMP_OPTIONS = { lineWidth: -1 } as Parameters<typeof matter.stringify>[2];

/** Serialises a memory file: frontmatter fields in the given order, then the body. */
export function serializeMemory(fields: Record<string, unknown>, body: string): string {
  return matter.stringify(body, fields, DUMP_OPTIONS);
}

/** The YAML lines for one field, as `serializeMemory` would write them (F1: edit one field). */
export function stringifyField(key: string, value: unknown): string[] {
  const text = matter.stringify("", { [key]: value }, DUMP_OPTIONS);
  const lines = text.split("\n");
  const closing = lines.indexOf("---", 1);
  return lines.slice(1, closing);
}
