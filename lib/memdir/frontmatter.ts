import matter from "gray-matter";
import { countAliasReferences, exceedsNodeBudget, MAX_YAML_ALIASES, MAX_YAML_CHARS } from "./guard-yaml-aliases";
import { isQuoted, readSimpleFrontmatter, YAML_SPECIAL } from "./read-simple-frontmatter";
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
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes("\r") ? withoutBom.replace(/\r\n/g, "\n") : withoutBom;
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
  if (block.yaml.length > MAX_YAML_CHARS) return withoutFields(block.body, "too-large");
  if (countAliasReferences(block.yaml) > MAX_YAML_ALIASES) return withoutFields(block.body, "alias-limit");
  const simple = readSimpleFrontmatter(block.yaml);
  if (simple) return { fields: simple.fields, body: block.body, status: simple.status };
  let status: FrontmatterStatus = "ok";
  let data = loadYaml(block.yaml);
  if (data === YAML_ERROR) {
    status = "retried";
    data = loadYaml(quoteSpecialValues(block.yaml));
  }
  if (data === YAML_ERROR) return withoutFields(block.body, "invalid-yaml");
  if (data === null || data === undefined) return withoutFields(block.body, "ok");
  if (!isPlainObject(data)) return withoutFields(block.body, "not-object");
  if (exceedsNodeBudget(data)) return withoutFields(block.body, "alias-limit");
  return { fields: data, body: block.body, status };
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
