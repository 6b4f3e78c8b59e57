import type { Prisma } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { memoryAge, memoryAgeDays, needsFreshnessWarning } from "../memdir/age";
import { isMemoryType } from "../memdir/frontmatter";
import type { LintFinding, LintRule } from "../memdir/lint-finding";
import { AGE_BUCKET_IDS, type AgeBucket, type MemoryFilters } from "../memories/filter-memories";
import type { MemoryCounts } from "../memories/list-memories";
import type { MemoryRow } from "../memories/memory-row";
import { parseJsonOrNull } from "../parse-json";
import { readFreshnessState } from "../stale/stored-freshness";

const DAY_MS = 24 * 60 * 60 * 1000;
// The day counts that bound each age bucket (see AGE_BUCKETS): "within N days" or "N days or more".
const AGE_BOUNDS: Record<AgeBucket, { within?: number; atLeast?: number }> = {
  today: { within: 1 },
  week: { within: 7 },
  month: { within: 30 },
  "over-30": { atLeast: 30 },
  "over-90": { atLeast: 90 },
};

export type MemoryRowQuery = { projectId: string; filters: MemoryFilters; page: number; pageSize: number; now: Date };

export type MemoryRowPage = { total: number; matching: number; rows: MemoryRow[]; counts: MemoryCounts; page: number; pageCount: number };

/**
 * The Memories page for a team project, from the read model: filtered, counted, sorted and paged
 * in SQL, so 25 rows of 10,000 cost what 25 rows of 30 do. Counts apply every other filter, as
 * each link shows what it would list.
 */
export async function queryMemoryRows(db: Db, query: MemoryRowQuery): Promise<MemoryRowPage> {
  const { projectId, filters, now } = query;
  const where = (parts: MemoryFilters): Prisma.StoreMemoryWhereInput => ({
    projectId,
    AND: [typeWhere(parts.type), ageWhere(parts.age, now), findingWhere(parts.finding), freshnessWhere(parts)],
  });
  const forFindings = where({ ...filters, finding: undefined });
  const [total, matching, typeGroups, ruleGroups, withFindings, withErrors, ...ageCounts] = await Promise.all([
    db.storeMemory.count({ where: { projectId } }),
    db.storeMemory.count({ where: where(filters) }),
    db.storeMemory.groupBy({ by: ["type"], where: where({ ...filters, type: undefined }), _count: { _all: true } }),
    // Few distinct rule combinations exist, so grouping by the combination and splitting is cheap.
    db.storeMemory.groupBy({ by: ["findingRules"], where: { ...forFindings, findingCount: { gt: 0 } }, _count: { _all: true } }),
    db.storeMemory.count({ where: { ...forFindings, findingCount: { gt: 0 } } }),
    db.storeMemory.count({ where: { ...forFindings, hasErrors: true } }),
    ...AGE_BUCKET_IDS.map((age) => db.storeMemory.count({ where: where({ ...filters, age }) })),
  ]);
  // Few distinct states and reason combinations exist: grouping by them stays cheap.
  const [stateGroups, reasonGroups] = await Promise.all([
    db.storeMemory.groupBy({ by: ["freshState"], where: where({ ...filters, freshness: undefined }), _count: { _all: true } }),
    db.storeMemory.groupBy({ by: ["freshReasons"], where: { ...where({ ...filters, reason: undefined }), freshReasons: { not: "" } }, _count: { _all: true } }),
  ]);
  const pageCount = Math.max(1, Math.ceil(matching / query.pageSize));
  const page = Math.min(Math.max(1, query.page), pageCount);
  const direction = filters.sort === "oldest" ? "asc" : "desc";
  const order: Prisma.StoreMemoryOrderByWithRelationInput[] = filters.sort === "stalest" ? [{ freshScore: "desc" }, { changedAt: "asc" }, { path: "asc" }] : [{ changedAt: direction }, { path: "asc" }];
  const records = await db.storeMemory.findMany({
    where: where(filters),
    orderBy: order,
    skip: (page - 1) * query.pageSize,
    take: query.pageSize,
  });
  return {
    total,
    matching,
    rows: records.map((record) => toMemoryRow(record, now)),
    counts: {
      byType: Object.fromEntries(typeGroups.map((group) => [group.type ?? "untyped", group._count._all])),
      byAge: Object.fromEntries(AGE_BUCKET_IDS.map((age, index) => [age, ageCounts[index]!])) as Record<AgeBucket, number>,
      byRule: countRules(ruleGroups.map((group) => ({ rules: group.findingRules, count: group._count._all }))),
      withFindings,
      withErrors,
      byFreshness: Object.fromEntries(stateGroups.map((group) => [group.freshState ?? "unchecked", group._count._all])),
      byReason: countRules(reasonGroups.map((group) => ({ rules: group.freshReasons, count: group._count._all }))).map(({ rule, count }) => ({ reason: rule, count })),
    },
    page,
    pageCount,
  };
}

function typeWhere(type: MemoryFilters["type"]): Prisma.StoreMemoryWhereInput {
  if (type === undefined) return {};
  return type === "untyped" ? { type: null } : { type };
}

function ageWhere(age: AgeBucket | undefined, now: Date): Prisma.StoreMemoryWhereInput {
  if (age === undefined) return {};
  const bound = AGE_BOUNDS[age];
  // whole days < N  ⇔  now − changedAt < N days; ≥ N  ⇔  changedAt ≤ now − N days (lib/memdir/age.ts)
  if (bound.within !== undefined) return { changedAt: { gt: new Date(now.getTime() - bound.within * DAY_MS) } };
  return { changedAt: { lte: new Date(now.getTime() - bound.atLeast! * DAY_MS) } };
}

function findingWhere(finding: MemoryFilters["finding"]): Prisma.StoreMemoryWhereInput {
  if (finding === undefined) return {};
  if (finding === "any") return { findingCount: { gt: 0 } };
  if (finding === "errors") return { hasErrors: true };
  return { findingRules: { contains: `|${finding}|` } };
}

function freshnessWhere(filters: MemoryFilters): Prisma.StoreMemoryWhereInput {
  return {
    ...(filters.freshness === undefined ? {} : { freshState: filters.freshness }),
    ...(filters.reason === undefined ? {} : { freshReasons: { contains: `|${filters.reason}|` } }),
  };
}

function countRules(groups: { rules: string; count: number }[]): { rule: LintRule; count: number }[] {
  const counts = new Map<LintRule, number>();
  for (const group of groups) {
    for (const rule of group.rules.split("|").filter(Boolean) as LintRule[]) counts.set(rule, (counts.get(rule) ?? 0) + group.count);
  }
  return [...counts].map(([rule, count]) => ({ rule, count })).sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}

type StoreMemoryRecord = Awaited<ReturnType<Db["storeMemory"]["findMany"]>>[number];

export function toMemoryRow(record: StoreMemoryRecord, now: Date): MemoryRow {
  const findings = parseJsonOrNull(record.findings);
  return {
    path: record.path,
    name: record.name,
    description: record.description,
    type: isMemoryType(record.type) ? record.type : null,
    mtime: record.changedAt,
    ageDays: memoryAgeDays(record.changedAt, now),
    ageText: memoryAge(record.changedAt, now),
    hasFreshnessWarning: needsFreshnessWarning(record.changedAt, now),
    findings: Array.isArray(findings) ? (findings as LintFinding[]) : [],
    freshness: { state: readFreshnessState(record.freshState), score: record.freshScore, reasons: record.freshReasons.split("|").filter(Boolean) },
  };
}
