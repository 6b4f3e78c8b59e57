import type { Db } from "../db/client";
import { isMemoryType } from "../memdir/frontmatter";
import type { AgeBucket, MemorySummary, MemoryTypeLabel } from "./overview-types";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Age bands a lead reads at a glance; the last one is open-ended. */
export const AGE_BANDS: Omit<AgeBucket, "count">[] = [
  { label: "0–7 days", minDays: 0, maxDays: 7 },
  { label: "8–30 days", minDays: 8, maxDays: 30 },
  { label: "31–90 days", minDays: 31, maxDays: 90 },
  { label: "91–180 days", minDays: 91, maxDays: 180 },
  { label: "181–365 days", minDays: 181, maxDays: 365 },
  { label: "over a year", minDays: 366, maxDays: null },
];

export const TYPE_ORDER: MemoryTypeLabel[] = ["feedback", "project", "reference", "user", "untyped"];

/**
 * A project's team memories by type and by age, from the read model: one grouped query and one
 * indexed range count per age band, whatever the number of memories. Age is whole days since
 * the file's last commit, as the memory pages show it.
 */
export async function summarizeMemories(db: Db, projectId: string, now: Date): Promise<MemorySummary> {
  const [byTypeRows, latest, ageCounts] = await Promise.all([
    db.storeMemory.groupBy({ by: ["type"], where: { projectId }, _count: { _all: true } }),
    db.storeMemory.aggregate({ where: { projectId }, _max: { changedAt: true } }),
    Promise.all(AGE_BANDS.map((band) => db.storeMemory.count({ where: { projectId, changedAt: changedAtRange(band, now) } }))),
  ]);
  const counts = new Map<MemoryTypeLabel, number>();
  for (const row of byTypeRows) {
    const type = isMemoryType(row.type) ? row.type : "untyped";
    counts.set(type, (counts.get(type) ?? 0) + row._count._all);
  }
  const byType = TYPE_ORDER.filter((type) => counts.has(type)).map((type) => ({ type, count: counts.get(type)! }));
  return {
    total: byType.reduce((sum, entry) => sum + entry.count, 0),
    byType,
    ageBuckets: AGE_BANDS.map((band, index) => ({ ...band, count: ageCounts[index]! })),
    lastChangedAt: latest._max.changedAt?.toISOString() ?? null,
  };
}

// A memory is N days old when now - changedAt is in [N, N+1) days (memoryAgeDays floors).
// The newest band has no upper bound: a commit time a little in the future (clock drift) is 0 days.
function changedAtRange(band: Omit<AgeBucket, "count">, now: Date): { lte?: Date; gt?: Date } {
  const newest = band.minDays === 0 ? undefined : new Date(now.getTime() - band.minDays * DAY_MS);
  const oldest = band.maxDays === null ? undefined : new Date(now.getTime() - (band.maxDays + 1) * DAY_MS);
  return { ...(newest ? { lte: newest } : {}), ...(oldest ? { gt: oldest } : {}) };
}
