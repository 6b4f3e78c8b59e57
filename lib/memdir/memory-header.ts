import { countAliasReferences, MAX_YAML_ALIASES, MAX_YAML_CHARS } from "./guard-yaml-aliases";
import { readSimpleFrontmatter } from "./read-simple-frontmatter";
import { splitFrontmatter } from "./split-frontmatter";

// The memory header's types and the part of C4 that needs no YAML library. frontmatter.ts adds
// the YAML reading for the rest; a scan loads it only for a file that needs it, so a command
// that only lists memories never loads js-yaml (~4 ms of every such command's start).

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

/** A closed frontmatter block only YAML can read: its text and the body after it. */
export type YamlNeeded = { yaml: string; body: string };

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === "string" && (MEMORY_TYPES as readonly string[]).includes(value);
}

/** C4: strip a UTF-8 BOM and turn CRLF into LF before anything else looks at the text. */
export function normaliseText(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes("\r") ? withoutBom.replace(/\r\n/g, "\n") : withoutBom;
}

/**
 * C4 up to the YAML reading: no block, an unclosed one, one over the size or alias bounds, and
 * the flat `key: value` frontmatter nearly every memory has are read here; any other block is
 * handed back for YAML.
 */
export function readFrontmatterWithoutYaml(text: string): ParsedFrontmatter | YamlNeeded {
  const block = splitFrontmatter(normaliseText(text));
  if (block.kind !== "closed") return { fields: {}, body: block.body, status: block.kind };
  if (block.yaml.length > MAX_YAML_CHARS) return { fields: {}, body: block.body, status: "too-large" };
  if (countAliasReferences(block.yaml) > MAX_YAML_ALIASES) return { fields: {}, body: block.body, status: "alias-limit" };
  const simple = readSimpleFrontmatter(block.yaml);
  if (simple) return { fields: simple.fields, body: block.body, status: simple.status };
  return { yaml: block.yaml, body: block.body };
}

/** The header a memory's parsed frontmatter gives: name, description and type as recall reads them. */
export function toMemoryHeader({ fields, status }: ParsedFrontmatter): MemoryHeader {
  return {
    name: asText(fields.name),
    description: asText(fields.description),
    type: isMemoryType(fields.type) ? fields.type : null,
    fields,
    status,
  };
}

/** The header when no YAML is needed to read it, else null (frontmatter.ts reads it then). */
export function readHeaderWithoutYaml(text: string): MemoryHeader | null {
  const parsed = readFrontmatterWithoutYaml(text);
  return "status" in parsed ? toMemoryHeader(parsed) : null;
}

function asText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}
