import type { MemoryType } from "../memdir/frontmatter";
import type { LintRule } from "../memdir/lint-finding";
import type { MemoryRow } from "./memory-row";

/**
 * Age buckets. "Within" buckets nest (today is also this week) because a lead asks "what changed
 * this week?"; the "over" buckets find memories old enough to verify or retire.
 */
export const AGE_BUCKET_IDS = ["today", "week", "month", "over-30", "over-90"] as const;
export type AgeBucket = (typeof AGE_BUCKET_IDS)[number];
export const AGE_BUCKETS: Record<AgeBucket, { label: string; matches: (days: number) => boolean }> = {
  today: { label: "today", matches: (days) => days < 1 },
  week: { label: "this week", matches: (days) => days < 7 },
  month: { label: "this month", matches: (days) => days < 30 },
  "over-30": { label: "older than 30 days", matches: (days) => days >= 30 },
  "over-90": { label: "older than 90 days", matches: (days) => days >= 90 },
};

/** "has findings", "has errors", or one rule id; a rule id is any lowercase-dashed word, so rules added to lib/memdir filter without a change here. */
export const FINDING_FILTER = /^(any|errors|[a-z][a-z-]{0,48})$/;

/** `stalest`: by the staleness score (team memory only; lib/stale), highest first. */
export const MEMORY_SORTS = ["newest", "oldest", "stalest"] as const;
export type MemorySort = (typeof MEMORY_SORTS)[number];

/** `any`: at least one finding; `errors`: at least one error; else a rule id. */
export type FindingFilter = "any" | "errors" | LintRule | (string & {});

export type MemoryFilters = {
  type?: MemoryType | "untyped";
  age?: AgeBucket;
  finding?: FindingFilter;
  /** Team memory only: the staleness state, or one reason (signal kind). */
  freshness?: "fresh" | "aging" | "stale";
  reason?: string;
  sort?: MemorySort;
};

export function matchesType(row: MemoryRow, type: MemoryFilters["type"]): boolean {
  return type === undefined || (row.type ?? "untyped") === type;
}

export function matchesAge(row: MemoryRow, age: AgeBucket | undefined): boolean {
  return age === undefined || AGE_BUCKETS[age].matches(row.ageDays);
}

export function matchesFinding(row: MemoryRow, finding: FindingFilter | undefined): boolean {
  if (finding === undefined) return true;
  if (finding === "any") return row.findings.length > 0;
  if (finding === "errors") return row.findings.some((item) => item.severity === "error");
  return row.findings.some((item) => item.rule === finding);
}

/** The rows that pass every filter, sorted by age (ties by path, so pages are stable). */
export function filterMemories(rows: MemoryRow[], filters: MemoryFilters): MemoryRow[] {
  const direction = filters.sort === "oldest" ? -1 : 1;
  return rows
    .filter((row) => matchesType(row, filters.type) && matchesAge(row, filters.age) && matchesFinding(row, filters.finding))
    .sort((a, b) => direction * (b.mtime.getTime() - a.mtime.getTime()) || a.path.localeCompare(b.path));
}
