import type { IndexRepair } from "../memdir/repair-index";

export type DiffLine =
  | { kind: "context" | "removed"; line: number; text: string }
  | { kind: "added"; line: null; text: string }
  | { kind: "gap"; line: null; text: "" };

const CONTEXT_LINES = 2;

/**
 * The repair as a line diff to review before applying it. A repair only drops lines and appends
 * new ones (I4, repairIndexText), so walking both texts in step is exact: an unequal line is
 * either one of the dropped ones or an added one. Unchanged runs are cut to two lines of context.
 */
export function diffIndexRepair(repair: Pick<IndexRepair, "before" | "after">, droppedLines: number[]): DiffLine[] {
  const before = repair.before.split("\n");
  const after = repair.after.split("\n");
  const dropped = new Set(droppedLines);
  const lines: DiffLine[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  while (oldIndex < before.length || newIndex < after.length) {
    const oldText = before[oldIndex];
    if (oldText !== undefined && dropped.has(oldIndex + 1)) {
      lines.push({ kind: "removed", line: oldIndex + 1, text: shown(oldText) });
      oldIndex++;
    } else if (oldText !== undefined && oldText === after[newIndex]) {
      lines.push({ kind: "context", line: oldIndex + 1, text: shown(oldText) });
      oldIndex++;
      newIndex++;
    } else if (newIndex < after.length) {
      lines.push({ kind: "added", line: null, text: shown(after[newIndex]!) });
      newIndex++;
    } else {
      oldIndex++; // cannot happen for a repair; never loop forever on other input
    }
  }
  return collapseContext(dropTrailingBlank(lines));
}

function shown(text: string): string {
  return text.replace(/\r$/, "");
}

// The empty string after a file's final newline is not a line anyone would call a line.
function dropTrailingBlank(lines: DiffLine[]): DiffLine[] {
  const last = lines.at(-1);
  return last && last.text === "" && last.kind !== "removed" ? lines.slice(0, -1) : lines;
}

function collapseContext(lines: DiffLine[]): DiffLine[] {
  const isNearChange = (index: number) =>
    lines.slice(Math.max(0, index - CONTEXT_LINES), index + CONTEXT_LINES + 1).some((line) => line.kind === "removed" || line.kind === "added");
  const collapsed: DiffLine[] = [];
  lines.forEach((line, index) => {
    if (line.kind !== "context" || isNearChange(index)) collapsed.push(line);
    else if (collapsed.at(-1)?.kind !== "gap") collapsed.push({ kind: "gap", line: null, text: "" });
  });
  return collapsed;
}
