export type FrontmatterBlock =
  | { kind: "none"; body: string }
  | { kind: "unclosed"; body: string }
  | { kind: "closed"; yaml: string; body: string };

const DELIMITER = /^---[ \t]*$/;
// The same rule matched in place from a line's start (`lastIndex`), sparing a slice per line.
const DELIMITER_AT = /---[ \t]*(?:\n|$)/y;

/**
 * C4: a memory has frontmatter only when its text STARTS with a `---` line and a closing `---`
 * line follows. Expects normalised text (no BOM, LF). An unclosed block yields no fields: when
 * the caller passes only the first 30 lines, a block closing after line 30 is "unclosed" here,
 * which is exactly how Claude Code ends up with no description for it.
 */
export function splitFrontmatter(text: string): FrontmatterBlock {
  const firstBreak = text.indexOf("\n");
  const firstLine = firstBreak === -1 ? text : text.slice(0, firstBreak);
  if (!DELIMITER.test(firstLine)) return { kind: "none", body: text };
  if (firstBreak === -1) return { kind: "unclosed", body: "" };
  let lineStart = firstBreak + 1;
  while (lineStart <= text.length) {
    const lineEnd = nextLineEnd(text, lineStart);
    DELIMITER_AT.lastIndex = lineStart;
    if (DELIMITER_AT.test(text)) {
      return { kind: "closed", yaml: text.slice(firstBreak + 1, lineStart), body: text.slice(Math.min(lineEnd + 1, text.length)) };
    }
    if (lineEnd >= text.length) break;
    lineStart = lineEnd + 1;
  }
  return { kind: "unclosed", body: "" };
}

function nextLineEnd(text: string, from: number): number {
  const index = text.indexOf("\n", from);
  return index === -1 ? text.length : index;
}
