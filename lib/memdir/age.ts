const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days between a memory's mtime and now (never negative: clocks drift). */
export function memoryAgeDays(mtime: Date, now: Date = new Date()): number {
  return Math.max(0, Math.floor((now.getTime() - mtime.getTime()) / DAY_MS));
}

/** A1: age in words; models reason better about "47 days ago" than about a timestamp. */
export function memoryAge(mtime: Date, now: Date = new Date()): string {
  const days = memoryAgeDays(mtime, now);
  if (days === 0) return "today";
  if (days === 1) return "yesterday";
  return `${days} days ago`;
}

/** A2: memories older than one day carry a freshness warning. */
export function needsFreshnessWarning(mtime: Date, now: Date = new Date()): boolean {
  return memoryAgeDays(mtime, now) > 1;
}

/** A2: the warning, in teammem's own words, or null for fresh memories. */
export function freshnessWarning(mtime: Date, now: Date = new Date()): string | null {
  if (!needsFreshnessWarning(mtime, now)) return null;
  const days = memoryAgeDays(mtime, now);
  return (
    `This memory is ${days} days old. It records what was true when it was written, not the ` +
    "current state: statements about code behaviour or file:line citations may be out of date. " +
    "Check them against the current code before relying on them."
  );
}
