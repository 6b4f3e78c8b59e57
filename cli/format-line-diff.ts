export type LineDiffOptions = { label: string; before: string; after: string };

/**
 * A `diff -U0`-style listing of an edit. Lines are matched greedily in order, which is exact and
 * linear for an edit that only deletes lines and appends new ones (an index repair, I4); any
 * other edit still gets a correct, if longer, listing. A general LCS diff would be quadratic on
 * an index of thousands of lines.
 */
export function formatLineDiff(options: LineDiffOptions): string[] {
  const before = splitLines(options.before);
  const after = splitLines(options.after);
  const out = [`--- ${options.label} (before)`, `+++ ${options.label} (after)`];
  let afterIndex = 0;
  let removed: string[] = [];
  let removedFrom = 0;
  const flushRemoved = (): void => {
    if (removed.length === 0) return;
    out.push(`@@ -${removedFrom},${removed.length} +${afterIndex},0 @@`, ...removed.map((line) => `-${line}`));
    removed = [];
  };
  for (let beforeIndex = 0; beforeIndex < before.length; beforeIndex++) {
    if (before[beforeIndex] === after[afterIndex]) {
      flushRemoved();
      afterIndex++;
      continue;
    }
    if (removed.length === 0) removedFrom = beforeIndex + 1;
    removed.push(before[beforeIndex] ?? "");
  }
  flushRemoved();
  const added = after.slice(afterIndex);
  if (added.length > 0) out.push(`@@ -${before.length},0 +${afterIndex + 1},${added.length} @@`, ...added.map((line) => `+${line}`));
  return out;
}

/** Lines without their ends (LF or CRLF); a final line end does not open an empty last line. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}
