import type { SecretRange } from "./secret-finding";

/**
 * Sorted, non-overlapping ranges. Overlapping ranges become their union (never less than any rule
 * saw), named by the most specific rule; the union is unbounded if any part was.
 */
export function mergeSecretRanges(ranges: SecretRange[]): SecretRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretRange[] = [];
  for (const next of sorted) {
    const last = merged.at(-1);
    if (!last || next.start >= last.end) {
      merged.push({ ...next });
      continue;
    }
    if (next.rank > last.rank) {
      last.kind = next.kind;
      last.rank = next.rank;
    }
    last.end = Math.max(last.end, next.end);
    last.isBounded = last.isBounded && next.isBounded;
  }
  return merged;
}
