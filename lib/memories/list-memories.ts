import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { LintFinding, LintRule } from "../memdir/lint-finding";
import { AGE_BUCKET_IDS, filterMemories, matchesAge, matchesFinding, matchesType, type AgeBucket, type MemoryFilters } from "./filter-memories";
import { listMemorySources, type MemorySources } from "./list-memory-sources";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { queryMemoryRows } from "../read-model/query-memory-rows";
import { ensureProjectFreshness } from "../stale/load-project-freshness";
import { loadMemoryRows } from "./load-memory-rows";
import type { MemoryRow } from "./memory-row";
import { withMemoryDir, type MemoryScope, type MemorySource } from "./memory-source";

export type ListMemoriesOptions = {
  config: Config;
  db: Db;
  caller: Caller;
  scope: MemoryScope;
  /** The team project or private folder asked for; the first one when absent. */
  projectId?: string;
  folder?: string;
  filters: MemoryFilters;
  page: number;
  pageSize?: number;
  now?: Date;
};

export type MemoryCounts = {
  /** Each count applies every other filter, so a number is what the link would show. */
  byType: Record<string, number>;
  byAge: Record<AgeBucket, number>;
  byRule: { rule: LintRule; count: number }[];
  withFindings: number;
  withErrors: number;
  /** Team memory: counts per staleness state and per reason, every other filter applied. */
  byFreshness?: Record<string, number>;
  byReason?: { reason: string; count: number }[];
};

export type MemoryList = {
  sources: MemorySources;
  /** Null when the caller has nothing to browse in this scope. */
  source: MemorySource | null;
  total: number;
  counts: MemoryCounts;
  matching: number;
  memories: MemoryRow[];
  page: number;
  pageCount: number;
  otherFindings: LintFinding[];
};

/** The Memories page: one source (team project or private folder), filtered, sorted, paged. */
export async function listMemories(options: ListMemoriesOptions): Promise<MemoryList> {
  const { config, db, caller, filters, pageSize = 25 } = options;
  const sources = await listMemorySources({ config, db, caller });
  const source = pickSource(sources, options);
  if (source?.scope === "team") return listTeamMemories(options, sources, source);
  const loaded = source ? await withMemoryDir({ config, caller, folder: source.folder }, ({ memoryDir }) => loadMemoryRows(memoryDir, options.now)) : { rows: [], otherFindings: [] };
  const matching = filterMemories(loaded.rows, filters);
  const pageCount = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(Math.max(1, options.page), pageCount);
  return {
    sources,
    source,
    total: loaded.rows.length,
    counts: countMemories(loaded.rows, filters),
    matching: matching.length,
    memories: matching.slice((page - 1) * pageSize, page * pageSize),
    page,
    pageCount,
    otherFindings: loaded.otherFindings,
  };
}

// Team memory comes from the read model (filtered and paged in SQL); private memory is a folder on
// this machine and is scanned as Claude Code scans it.
async function listTeamMemories(options: ListMemoriesOptions, sources: MemorySources, source: Extract<MemorySource, { scope: "team" }>): Promise<MemoryList> {
  await ensureReadModel(options.config, options.db);
  await ensureProjectFreshness(options.config, options.db, source.projectId);
  const result = await queryMemoryRows(options.db, { projectId: source.projectId, filters: options.filters, page: options.page, pageSize: options.pageSize ?? 25, now: options.now ?? new Date() });
  return { sources, source, total: result.total, counts: result.counts, matching: result.matching, memories: result.rows, page: result.page, pageCount: result.pageCount, otherFindings: [] };
}

function pickSource(sources: MemorySources, options: ListMemoriesOptions): MemorySource | null {
  if (options.scope === "team") {
    const project = options.projectId ? sources.projects.find((candidate) => candidate.id === options.projectId) : sources.projects[0];
    if (options.projectId && !project) throw new AppError("NOT_FOUND", `There is no project "${options.projectId.slice(0, 100)}" that you can see.`);
    return project ? { scope: "team", projectId: project.id } : null;
  }
  if (sources.privateStatus !== "shown") {
    throw new AppError("NOT_FOUND", "Private memory is shown only to the owner of this machine's Claude home (TEAMMEM_CLAUDE_HOME_OWNER).");
  }
  const folder = options.folder ? sources.privateFolders.find((candidate) => candidate.folder === options.folder) : sources.privateFolders[0];
  if (options.folder && !folder) throw new AppError("NOT_FOUND", `There is no private memory folder "${options.folder.slice(0, 200)}" that you can see.`);
  return folder ? { scope: "private", folder: folder.folder } : null;
}

function countMemories(rows: MemoryRow[], filters: MemoryFilters): MemoryCounts {
  const forType = rows.filter((row) => matchesAge(row, filters.age) && matchesFinding(row, filters.finding));
  const forAge = rows.filter((row) => matchesType(row, filters.type) && matchesFinding(row, filters.finding));
  const forFinding = rows.filter((row) => matchesType(row, filters.type) && matchesAge(row, filters.age));
  const byType: Record<string, number> = {};
  for (const row of forType) byType[row.type ?? "untyped"] = (byType[row.type ?? "untyped"] ?? 0) + 1;
  const byAge = Object.fromEntries(AGE_BUCKET_IDS.map((age) => [age, forAge.filter((row) => matchesAge(row, age)).length])) as Record<AgeBucket, number>;
  const ruleCounts = new Map<LintRule, number>();
  for (const row of forFinding) for (const rule of new Set(row.findings.map((finding) => finding.rule))) ruleCounts.set(rule, (ruleCounts.get(rule) ?? 0) + 1);
  return {
    byType,
    byAge,
    byRule: [...ruleCounts].map(([rule, count]) => ({ rule, count })).sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)),
    withFindings: forFinding.filter((row) => matchesFinding(row, "any")).length,
    withErrors: forFinding.filter((row) => matchesFinding(row, "errors")).length,
  };
}
