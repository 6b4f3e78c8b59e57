import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import { log } from "../log";
import { syncCodeMirror } from "../code-repo/mirror-code-repo";
import { findCodeRepoInTeammemData } from "../projects/find-code-repo-in-teammem-data";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { flushRecallLog } from "../recall/recall-log";
import { readBlobs } from "../store/git";
import { assessFreshness } from "./assess-freshness";
import { checkMemoryTexts } from "./check-memory-texts";
import { loadCachedResults } from "./load-cached-results";
import { serializeCheckResult, type CheckResult } from "./check-result";
import { findProjectDuplicates } from "./find-project-duplicates";
import { NEVER_RECALLED_DAYS, readStaleAfterDays, thresholdsFromDays } from "./stale-thresholds";
import { toStoredFreshness, type StoredFreshness } from "./stored-freshness";

const BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

export type RefreshOptions = {
  /** Fetch the code repository now, whatever the schedule. */
  force?: boolean;
  /** false (page reads): check against the mirror as it is; fetching happens in the background. */
  waitForCode?: boolean;
  now?: Date;
};

export type RefreshOutcome = { codeCommit: string | null; codeRepoProblem: string | null; checked: number; cached: number; updated: number };

type CodeHead = { dir: string; commit: string } | { problem: string };

/**
 * Checks every team memory of a project and writes each one's state, score and signals onto its
 * read-model row. Work grows with what changed: results are cached per (memory blob, code commit),
 * so only new file versions, or every file once per new code commit, are checked, each batch
 * with a fixed number of git processes. Rows whose verdict did not change are not written.
 */
export async function refreshProjectFreshness(config: Config, db: Db, projectId: string, options: RefreshOptions = {}): Promise<RefreshOutcome> {
  const now = options.now ?? new Date();
  const { commit: storeCommit } = await ensureReadModel(config, db);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { codeRepo: true, staleAfterDays: true } });
  if (!project) throw new AppError("NOT_FOUND", `There is no project "${projectId}".`);
  const code = await readCodeHead(config, projectId, project.codeRepo, options, now);
  const codeCommit = "commit" in code ? code.commit : null;
  const codeRepoProblem = "problem" in code ? code.problem : null;
  const rows = await db.storeMemory.findMany({
    where: { projectId },
    select: { path: true, blob: true, type: true, name: true, description: true, changedAt: true, freshState: true, freshScore: true, freshReasons: true, freshSignals: true },
  });
  const results = await loadCachedResults(db, rows.map((row) => row.blob), codeCommit ?? "");
  const misses = [...new Map(rows.filter((row) => !results.has(row.blob)).map((row) => [row.blob, row])).values()];
  if (misses.length > 0) {
    const texts = await readBlobs(config.storeCloneDir, misses.map((row) => row.blob));
    const fresh = await checkMemoryTexts({ memories: misses.flatMap((row) => (texts.has(row.blob) ? [{ key: row.blob, text: texts.get(row.blob)!, writtenAt: row.changedAt }] : [])), code: "commit" in code ? code : null });
    await saveResults(db, fresh, codeCommit ?? "");
    for (const [blob, result] of fresh) results.set(blob, result);
  }
  const [recalled, duplicates] = await Promise.all([
    recalledPaths(db, projectId, now),
    findProjectDuplicates(config, db, projectId, rows).catch((error: unknown) => {
      log("warn", "stale.duplicates_failed", { projectId, name: (error as Error)?.name ?? "unknown" });
      return null;
    }),
  ]);
  const thresholds = thresholdsFromDays(readStaleAfterDays(project.staleAfterDays));
  const changes = rows.flatMap((row) => {
    const check = results.get(row.blob);
    if (!check) return [];
    const assessment = assessFreshness({ type: row.type, lastCommitAt: row.changedAt, now, check, codeProblem: codeRepoProblem, wasRecalled: recalled.has(row.path), duplicateOf: duplicates?.get(row.path) ?? null, thresholds });
    const stored = toStoredFreshness(assessment, row.blob, duplicates === null);
    return isSame(row, stored) ? [] : [{ row, stored }];
  });
  let updated = 0;
  // Batched in transactions: one commit per 500 rows instead of one per row (10,000 on a first run).
  for (let start = 0; start < changes.length; start += BATCH) {
    const results = await db.$transaction(changes.slice(start, start + BATCH).map(({ row, stored }) => db.storeMemory.updateMany({ where: { projectId, path: row.path, blob: row.blob }, data: stored })));
    updated += results.reduce((sum, result) => sum + result.count, 0);
  }
  await db.staleRun.upsert({
    where: { projectId },
    create: { projectId, codeCommit, codeRepoProblem, storeCommit, checkedAt: now },
    update: { codeCommit, codeRepoProblem, storeCommit, checkedAt: now },
  });
  log("info", "stale.refreshed", { projectId, memories: rows.length, checked: misses.length, updated, codeCommit, hasCodeProblem: codeRepoProblem !== null });
  return { codeCommit, codeRepoProblem, checked: misses.length, cached: rows.length - misses.length, updated };
}

async function readCodeHead(config: Config, projectId: string, codeRepo: string | null, options: RefreshOptions, now: Date): Promise<CodeHead> {
  if (!codeRepo) return { problem: "no code repository is set for this project" };
  // Checked at every use too: a setting saved before this rule, or a data folder moved since.
  const ownData = findCodeRepoInTeammemData(config, codeRepo);
  if (ownData) return { problem: `the code repository is not checked: ${ownData}` };
  try {
    return await syncCodeMirror({ dataDir: config.dataDir, projectId, codeRepo, force: options.force ?? false, wait: options.waitForCode ?? true, now });
  } catch (error) {
    log("warn", "stale.code_repo_unreadable", { projectId, name: (error as Error)?.name ?? "unknown" });
    return { problem: isAppError(error) ? error.message : "the code repository could not be read" };
  }
}

async function saveResults(db: Db, results: Map<string, CheckResult>, codeCommit: string): Promise<void> {
  const entries = [...results];
  for (let start = 0; start < entries.length; start += BATCH) {
    const batch = entries.slice(start, start + BATCH);
    // Another instance may have checked the same pairs meanwhile: the results are equal, replace them.
    await db.$transaction([
      db.staleCheck.deleteMany({ where: { codeCommit, blob: { in: batch.map(([blob]) => blob) } } }),
      db.staleCheck.createMany({ data: batch.map(([blob, result]) => ({ blob, codeCommit, result: serializeCheckResult(result) })) }),
    ]);
  }
}

/** Paths given to an agent by any recall of the project in the last NEVER_RECALLED_DAYS days (the recall log; tries on the Recall page give no agent anything). */
async function recalledPaths(db: Db, projectId: string, now: Date): Promise<Set<string>> {
  await flushRecallLog(db);
  const events = await db.recallEvent.findMany({ where: { projectId, source: "agent", at: { gte: new Date(now.getTime() - NEVER_RECALLED_DAYS * DAY_MS) } }, select: { selected: true } });
  const paths = new Set<string>();
  for (const event of events) {
    try {
      const selected: unknown = JSON.parse(event.selected);
      if (Array.isArray(selected)) for (const file of selected) if (typeof file === "string") paths.add(file);
    } catch {
      continue; // a damaged row names nothing
    }
  }
  return paths;
}

function isSame(row: { freshState: string | null; freshScore: number; freshReasons: string; freshSignals: string }, stored: StoredFreshness): boolean {
  return row.freshState === stored.freshState && row.freshScore === stored.freshScore && row.freshReasons === stored.freshReasons && row.freshSignals === stored.freshSignals;
}
