import { parseFrontmatter, stringifyField } from "./frontmatter";

export type MemoryTextChanges = {
  /** Fields to set; `undefined` removes the field. Fields not named here keep every byte. */
  fields?: Record<string, unknown>;
  /** A new body; omitted keeps the body byte for byte. */
  body?: string;
};

const DELIMITER = /^---[ \t]*\r?$/;
const TOP_LEVEL_KEY = /^([^\s#:-][^:]*?|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]|$)/;

/**
 * F1: edits a memory file in place. Only the lines of the changed fields are rewritten, so
 * unknown fields, comments, quoting, a BOM and CRLF line ends survive untouched; re-dumping the
 * whole frontmatter would reorder and requote fields that the user never touched.
 */
export function updateMemoryText(text: string, changes: MemoryTextChanges): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.slice(bom.length).split("\n");
  let closing = DELIMITER.test(lines[0] ?? "") ? lines.findIndex((line, index) => index > 0 && DELIMITER.test(line)) : -1;
  if (closing === -1) {
    // No (closed) frontmatter: start one; the old text becomes the body unchanged.
    lines.unshift(`---${eol === "\r\n" ? "\r" : ""}`, `---${eol === "\r\n" ? "\r" : ""}`);
    closing = 1;
  }
  const current = parseFrontmatter(text).fields;
  for (const [key, value] of Object.entries(changes.fields ?? {})) {
    if (value !== undefined && key in current && sameValue(current[key], value)) continue;
    const replacement = value === undefined ? [] : stringifyField(key, value).map((line) => line + (eol === "\r\n" ? "\r" : ""));
    const start = findKeyLine(lines, key, closing);
    const end = start === -1 ? closing : fieldEnd(lines, start, closing);
    const at = start === -1 ? closing : start;
    lines.splice(at, end - at, ...replacement);
    closing += replacement.length - (end - at);
  }
  const head = lines.slice(0, closing + 1).join("\n");
  const body = changes.body === undefined ? lines.slice(closing + 1).join("\n") : changes.body.replace(/\r?\n/g, eol);
  return `${bom}${head}\n${body}`;
}

function findKeyLine(lines: string[], key: string, closing: number): number {
  for (let index = 1; index < closing; index++) {
    const match = TOP_LEVEL_KEY.exec(lines[index] ?? "");
    if (match && unquote(match[1] ?? "") === key) return index;
  }
  return -1;
}

/** A field runs until the next top-level line: a key, a comment or the closing delimiter. */
function fieldEnd(lines: string[], start: number, closing: number): number {
  let index = start + 1;
  while (index < closing && /^(?:[ \t]|-(?:[ \t]|\r?$)|\r?$)/.test(lines[index] ?? "")) index++;
  // Blank lines after a field belong to the layout, not to the field.
  while (index > start + 1 && /^\r?$/.test(lines[index - 1] ?? "")) index--;
  return index;
}

function unquote(key: string): string {
  return /^(["']).*\1$/.test(key) ? key.slice(1, -1) : key;
}

function sameValue(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
