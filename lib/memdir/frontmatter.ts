import matter from "gray-matter";

/** F2: the closed taxonomy. Anything else is not a type. */
export const MEMORY_TYPES = ["user", "feedback", "project", "reference"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** C4: only the first 30 lines are read when scanning. */
export const FRONTMATTER_MAX_LINES = 30;

export type MemoryHeader = {
  name: string | null;
  description: string | null;
  /** Null when missing or not exactly one of the four values (legacy files stay usable, C4). */
  type: MemoryType | null;
  /** Every frontmatter field as parsed, including unknown ones (F1 keeps them). */
  fields: Record<string, unknown>;
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
  const fields = parseFields(normaliseText(text));
  return {
    name: asText(fields.name),
    description: asText(fields.description),
    type: isMemoryType(fields.type) ? fields.type : null,
    fields,
  };
}

function parseFields(text: string): Record<string, unknown> {
  if (!text.startsWith("---")) return {};
  try {
    // An empty options object keeps gray-matter from caching results by content.
    const data: unknown = matter(text, {}).data;
    return isPlainObject(data) ? data : {};
  } catch {
    return {}; // C4: unparseable YAML means "no frontmatter", the file is still a memory
  }
}

function asText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Serialises a memory file: frontmatter fields in the given order, then the body. Values stay on
 * one line (no YAML folding) because Claude Code's fallback parser only understands `key: value`.
 */
export function serializeMemory(fields: Record<string, unknown>, body: string): string {
  // gray-matter hands its options to js-yaml's safeDump, which knows lineWidth.
  const yamlOptions = { lineWidth: -1 } as Parameters<typeof matter.stringify>[2];
  return matter.stringify(body, fields, yamlOptions);
}
