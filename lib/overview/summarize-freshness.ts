import { isMemoryType } from "../memdir/frontmatter";
import type { FreshnessState, FreshnessSummary, MemoryTypeLabel } from "./overview-types";
import { TYPE_ORDER } from "./summarize-memories";

const TOP_STALE = 10;

/** The part of lib/stale's ProjectFreshness the Overview reads (kept structural on purpose). */
export type FreshnessInput = {
  codeCommit: string | null;
  codeRepoProblem: string | null;
  checkedAt: string | null;
  memories: { path: string; name: string | null; type: string | null; state: FreshnessState; score: number; signals: { kind: string; message: string }[] }[];
};

/**
 * Counts a project's checked memories by type and state and stale ones by reason, and keeps the
 * ten stalest. A memory with several reasons counts once under each, so the reasons may add up
 * to more than the stale total.
 */
export function summarizeFreshness(input: FreshnessInput): FreshnessSummary {
  const byType = new Map<MemoryTypeLabel, Record<FreshnessState, number>>();
  const totals: Record<FreshnessState, number> = { fresh: 0, aging: 0, stale: 0 };
  const reasons = new Map<string, number>();
  for (const memory of input.memories) {
    const type = isMemoryType(memory.type) ? memory.type : "untyped";
    const row = byType.get(type) ?? { fresh: 0, aging: 0, stale: 0 };
    row[memory.state] += 1;
    byType.set(type, row);
    totals[memory.state] += 1;
    if (memory.state !== "stale") continue;
    for (const kind of new Set(memory.signals.map((signal) => signal.kind))) reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
  }
  const topStale = input.memories
    .filter((memory) => memory.state === "stale")
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, TOP_STALE)
    .map((memory) => ({ path: memory.path, name: memory.name, type: memory.type, score: memory.score, reasons: memory.signals.map((signal) => signal.message) }));
  return {
    status: "checked",
    checkedAt: input.checkedAt,
    codeCommit: input.codeCommit,
    codeRepoProblem: input.codeRepoProblem,
    byTypeAndState: TYPE_ORDER.filter((type) => byType.has(type)).map((type) => ({ type, ...byType.get(type)! })),
    totals,
    staleByReason: [...reasons].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
    topStale,
  };
}
