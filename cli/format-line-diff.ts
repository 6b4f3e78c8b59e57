import { structuredPatch } from "diff";

export type LineDiffOptions = { label: string; before: string; after: string };

/** Past this many changed lines the diff is not searched for: the whole text is listed as replaced. */
const MAX_EDIT_LENGTH = 5_000;

/**
 * A `diff -U0`-style listing of an edit: only the lines that changed, each hunk headed as GNU
 * diff heads it. Myers' diff (the `diff` package) costs time in proportion to the size of the
 * change, so an index of thousands of lines with a few repaired is quick (I4); an edit larger
 * than MAX_EDIT_LENGTH lines is listed as one replacement, correct if long. Line ends (LF or
 * CRLF) do not count as a difference.
 */
export function formatLineDiff(options: LineDiffOptions): string[] {
  const before = splitLines(options.before);
  const after = splitLines(options.after);
  const out = [`--- ${options.label} (before)`, `+++ ${options.label} (after)`];
  const patch = structuredPatch("before", "after", joinLines(before), joinLines(after), undefined, undefined, { context: 0, maxEditLength: MAX_EDIT_LENGTH });
  if (!patch) {
    out.push(`@@ -${range(1, before.length)} +${range(1, after.length)} @@`, ...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`));
    return out;
  }
  for (const hunk of patch.hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines.filter((line) => !line.startsWith("\\")));
  }
  return out;
}

/** As GNU diff (and the `diff` package's formatPatch) write it: an empty range names the line before it. */
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}

/** Lines without their ends (LF or CRLF); a final line end does not open an empty last line. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

function joinLines(lines: string[]): string {
  return lines.length ? `${lines.join("\n")}\n` : "";
}
