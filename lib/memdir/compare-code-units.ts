/**
 * Orders strings by their UTF-16 code units, as `<` does and as SQLite's default collation does
 * for the read model's `path` column. For the scan's and the ranker's tie-breaks, which every
 * `teammem scan` and `recall` runs: the first `localeCompare` of a process sets up ICU's
 * collator, ~15 ms, a tenth of `teammem scan` on a folder whose files share an mtime (as synced
 * files do). Listings people read (lint findings, orphans) keep the locale's order.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
