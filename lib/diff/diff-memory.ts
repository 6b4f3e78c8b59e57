import { diffLines, diffWordsWithSpace } from "diff";
import { splitFrontmatterForDiff } from "./split-for-diff";

export type FieldChange = { field: string; before: string | null; after: string | null; isChanged: boolean; words?: { before: WordPiece[]; after: WordPiece[] } };
/** A piece of a changed line; `isChanged` marks the words that differ from the other side. */
export type WordPiece = { text: string; isChanged: boolean };
export type BodyRow = {
  kind: "same" | "removed" | "added" | "changed";
  before: string | null;
  after: string | null;
  /** For a changed line with both sides: each side cut into pieces, changed words marked. */
  words?: { before: WordPiece[]; after: WordPiece[] };
};
export type MemoryDiff = { fields: FieldChange[]; body: BodyRow[]; isNew: boolean; isRetirement: boolean };

/**
 * A reviewer's view of a change to a memory: frontmatter field by field (the fields are what
 * recall selects on), then the body as side-by-side line rows (jsdiff).
 */
export function diffMemory(before: string | null, after: string | null): MemoryDiff {
  const left = splitFrontmatterForDiff(before ?? "");
  const right = splitFrontmatterForDiff(after ?? "");
  const names = [...new Set([...left.fields.keys(), ...right.fields.keys()])];
  const fields = names.map((field) => {
    const old = left.fields.get(field) ?? null;
    const next = right.fields.get(field) ?? null;
    const isChanged = old !== next;
    return { field, before: old, after: next, isChanged, ...(isChanged && old !== null && next !== null ? { words: diffWords(old, next) } : {}) };
  });
  return { fields, body: bodyRows(left.body, right.body), isNew: before === null, isRetirement: after === null };
}

function bodyRows(before: string, after: string): BodyRow[] {
  const rows: BodyRow[] = [];
  const parts = diffLines(before, after);
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const lines = splitLines(part.value);
    if (!part.added && !part.removed) {
      rows.push(...lines.map((line) => ({ kind: "same" as const, before: line, after: line })));
      continue;
    }
    const next = parts[index + 1];
    if (part.removed && next?.added) {
      // A removal followed by an addition is one edit: pair the lines side by side.
      const added = splitLines(next.value);
      for (let line = 0; line < Math.max(lines.length, added.length); line++) {
        const left = lines[line] ?? null;
        const right = added[line] ?? null;
        rows.push({ kind: "changed", before: left, after: right, ...(left !== null && right !== null ? { words: diffWords(left, right) } : {}) });
      }
      index++;
      continue;
    }
    rows.push(...lines.map((line) => (part.added ? { kind: "added" as const, before: null, after: line } : { kind: "removed" as const, before: line, after: null })));
  }
  return rows;
}

/** Word-level pieces of two versions of one line, so a reviewer sees what changed inside it. */
export function diffWords(before: string, after: string): { before: WordPiece[]; after: WordPiece[] } {
  const pieces = diffWordsWithSpace(before, after);
  return {
    before: pieces.filter((piece) => !piece.added).map((piece) => ({ text: piece.value, isChanged: piece.removed })),
    after: pieces.filter((piece) => !piece.removed).map((piece) => ({ text: piece.value, isChanged: piece.added })),
  };
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
