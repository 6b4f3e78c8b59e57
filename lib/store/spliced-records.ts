/**
 * Bytes made of consecutive records (a tree's entries, an index's lines) with where each one
 * starts: record i spans starts[i] to starts[i + 1], so there is one more start than records.
 * Replacing, removing or inserting one record copies the bytes around it and shifts the starts
 * after it (tree-object.ts, project-index.ts). Never changed in place.
 */
export type SplicedRecords = { bytes: Buffer; starts: Uint32Array };

/** `records` with `removeCount` records at `index` replaced by `inserted` (null: nothing inserted). */
export function spliceRecords(records: SplicedRecords, index: number, removeCount: number, inserted: Buffer | null): SplicedRecords {
  const { bytes, starts } = records;
  const from = starts[index]!;
  const to = starts[index + removeCount]!;
  const added = inserted === null ? 0 : 1;
  const insertedLength = inserted?.length ?? 0;
  const shift = insertedLength - (to - from);
  const next = new Uint32Array(starts.length - removeCount + added);
  next.set(starts.subarray(0, index + 1));
  if (added) next[index + 1] = from + insertedLength;
  for (let old = index + removeCount + 1, at = index + 1 + added; old < starts.length; old++, at++) next[at] = starts[old]! + shift;
  return { bytes: Buffer.concat([bytes.subarray(0, from), ...(inserted ? [inserted] : []), bytes.subarray(to)]), starts: next };
}
