import matter from "gray-matter";
import { exceedsNodeBudget } from "./guard-yaml-aliases";
import { readFrontmatterWithoutYaml, toMemoryHeader, type FrontmatterStatus, type MemoryHeader, type ParsedFrontmatter } from "./memory-header";
import { isQuoted, YAML_SPECIAL } from "./read-simple-frontmatter";

import { FRONTMATTER_MAX_LINES, normaliseText } from "./memory-header";

export { FRONTMATTER_MAX_LINES, isMemoryType, MEMORY_TYPES, normaliseText } from "./memory-header";
export type { FrontmatterStatus, MemoryHeader, MemoryType, ParsedFrontmatter } from "./memory-header";

/**
 * Reads a memory's frontmatter the way Claude Code does (C4): the file must start with `---`;
 * a YAML error or a non-object result counts as empty frontmatter, never an exception.
 */
export function parseMemoryHeader(text: string): MemoryHeader {
  return toMemoryHeader(parseFrontmatter(text));
}

/**
 * The header as a scan reads a whole file's text (C4: only the first 30 lines count, so a
 * frontmatter closing after line 30 gives no fields): lint, the read model, a memory's page and
 * the stale checks all read it so.
 */
export function parseHeaderOfFirstLines(text: string): MemoryHeader {
  return parseMemoryHeader(normaliseText(text).split("\n").slice(0, FRONTMATTER_MAX_LINES).join("\n"));
}

/** C4 in full: split, parse, retry once with quoted values, and bound alias expansion. */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const read = readFrontmatterWithoutYaml(text);
  if ("status" in read) return read;
  const { yaml, body } = read;
  let status: FrontmatterStatus = "ok";
  let data = loadYaml(yaml);
  if (data === YAML_ERROR) {
    status = "retried";
    data = loadYaml(quoteSpecialValues(yaml));
  }
  if (data === YAML_ERROR) return withoutFields(body, "invalid-yaml");
  if (data === null || data === undefined) return withoutFields(body, "ok");
  if (!isPlainObject(data)) return withoutFields(body, "not-object");
  if (exceedsNodeBudget(data)) return withoutFields(body, "alias-limit");
  return { fields: data, body, status };
}

function withoutFields(body: string, status: FrontmatterStatus): ParsedFrontmatter {
  return { fields: {}, body, status };
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
