import type { MemoryType } from "../memdir/frontmatter";
import type { LintFinding } from "../memdir/lint-finding";

/** One memory as the Memories page lists it. */
export type MemoryRow = {
  /** Relative to the memory directory, with `/` (C5). */
  path: string;
  name: string | null;
  description: string | null;
  type: MemoryType | null;
  /** The file's mtime; for the store, the author time of its last change. */
  mtime: Date;
  ageDays: number;
  /** A1: "today", "yesterday", "N days ago". */
  ageText: string;
  /** A2: an agent is given this memory with a freshness warning. */
  hasFreshnessWarning: boolean;
  /** F1-F6 findings and I4 (orphan) findings about this file. */
  findings: LintFinding[];
  /** Team memory: the staleness checks' verdict (lib/stale); null state = not checked yet. */
  freshness?: { state: "fresh" | "aging" | "stale" | null; score: number; reasons: string[] };
};
