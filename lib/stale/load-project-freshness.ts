import type { Config } from "../config";
import type { Db } from "../db/client";
import { isMirrorBusy, MIRROR_PENDING } from "../code-repo/mirror-code-repo";
import { log } from "../log";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { refreshProjectFreshness } from "./refresh-project-freshness";
import type { FreshnessState, StaleSignal } from "./stale-signal";
import { parseFreshnessDetails, readFreshnessState } from "./stored-freshness";

export type { FreshnessState, StaleSignal, StaleSignalKind } from "./stale-signal";

export type MemoryFreshness = {
  path: string;
  name: string;
  type: string;
  /** ISO time of the last commit that changed the file (its age). */
  lastCommitAt: string;
  state: FreshnessState;
  /** Higher is staler; sort by it. */
  score: number;
  signals: StaleSignal[];
  /** "not checked: <reason>" for each check that could not run. */
  notChecked: string[];
  /** Facts that are not reasons to doubt it (a cited symbol that now lives elsewhere). */
  notes?: string[];
};

export type ProjectFreshness = {
  projectId: string;
  /** The code commit the citations were checked against; null when none could be. */
  codeCommit: string | null;
  /** Why the code repository could not be checked (not set, unreachable), or null. */
  codeRepoProblem: string | null;
  /** When the project was last checked; null when never. */
  checkedAt: string | null;
  memories: MemoryFreshness[];
};

/** A check older than this is refreshed in the background; the page is served from what is stored. */
export const REFRESH_AFTER_MS = 15 * 60_000;

const refreshing = new Map<string, Promise<unknown>>();

/**
 * Every team memory of a project with its freshness, from the read model's rows (one query). A
 * project never checked, or checked at another store commit, is checked first (only the changed
 * files cost anything, thanks to the cache); a check that is merely old is redone in the
 * background, so a page never waits for the clock. `page` limits the rows to one page, stalest first.
 */
export async function loadProjectFreshness(config: Config, db: Db, projectId: string, page?: { skip: number; take: number }): Promise<ProjectFreshness> {
  const run = await ensureProjectFreshness(config, db, projectId);
  const rows = await db.storeMemory.findMany({
    where: { projectId },
    orderBy: [{ freshScore: "desc" }, { path: "asc" }],
    ...(page ?? {}),
    select: { path: true, name: true, type: true, changedAt: true, freshState: true, freshScore: true, freshSignals: true },
  });
  return {
    projectId,
    codeCommit: run?.codeCommit ?? null,
    codeRepoProblem: run?.codeRepoProblem ?? null,
    checkedAt: run?.checkedAt.toISOString() ?? null,
    memories: rows.map((row) => {
      const details = parseFreshnessDetails(row.freshSignals);
      const state = readFreshnessState(row.freshState);
      return {
        path: row.path,
        name: row.name ?? row.path,
        type: row.type ?? "untyped",
        lastCommitAt: row.changedAt.toISOString(),
        // A row the last check did not reach (it failed halfway) is not called fresh.
        state: state ?? "aging",
        score: row.freshScore,
        signals: details.signals,
        notChecked: state === null ? ["not checked: this file has not been checked yet"] : details.notChecked,
        notes: details.notes,
      };
    }),
  };
}

type StaleRunRow = Awaited<ReturnType<Db["staleRun"]["findUnique"]>>;

/**
 * How long a page waits for a check it started: a change of a few files is checked well within
 * it; the first check of 10,000 memories (~20 s) goes on behind the page, which shows the rows
 * not reached yet as "not checked yet".
 */
const PAGE_WAIT_MS = 1_000;

/**
 * Checks the project when it never was, or was at another store commit (only changed files cost
 * anything, thanks to the cache), waiting at most PAGE_WAIT_MS for it; a check that is merely old
 * is redone in the background.
 */
export async function ensureProjectFreshness(config: Config, db: Db, projectId: string): Promise<StaleRunRow> {
  const { commit: storeCommit } = await ensureReadModel(config, db);
  const run = await db.staleRun.findUnique({ where: { projectId } });
  if (!run || run.storeCommit !== storeCommit) {
    // A failed check leaves the rows unchecked ("not checked"), never a failed page.
    const check = refreshOnce(config, db, projectId).catch((error: unknown) => log("warn", "stale.refresh_failed", { projectId, name: (error as Error)?.name ?? "unknown" }));
    await Promise.race([check, sleep(PAGE_WAIT_MS)]);
    return db.staleRun.findUnique({ where: { projectId } });
  }
  if (Date.now() - run.checkedAt.getTime() > REFRESH_AFTER_MS || (run.codeRepoProblem === MIRROR_PENDING && !(await isMirrorStillCopying(config, db, projectId)))) {
    void refreshOnce(config, db, projectId).catch((error: unknown) => log("warn", "stale.background_refresh_failed", { projectId, name: (error as Error)?.name ?? "unknown" }));
  }
  return run;
}

export type FreshnessCheckSummary = { codeCommit: string | null; codeRepoProblem: string | null; checkedAt: string | null; counts: Record<FreshnessState, number> };

/** Settings' "Check now": fetches the code repository regardless of the schedule and checks again. */
export async function checkProjectFreshnessNow(config: Config, db: Db, projectId: string): Promise<FreshnessCheckSummary> {
  await ensureReadModel(config, db);
  await refreshProjectFreshness(config, db, projectId, { force: true });
  const [run, groups] = await Promise.all([
    db.staleRun.findUnique({ where: { projectId } }),
    db.storeMemory.groupBy({ by: ["freshState"], where: { projectId }, _count: { _all: true } }),
  ]);
  const counts: Record<FreshnessState, number> = { fresh: 0, aging: 0, stale: 0 };
  for (const group of groups) counts[readFreshnessState(group.freshState) ?? "aging"] += group._count._all;
  return { codeCommit: run?.codeCommit ?? null, codeRepoProblem: run?.codeRepoProblem ?? null, checkedAt: run?.checkedAt.toISOString() ?? null, counts };
}

async function isMirrorStillCopying(config: Config, db: Db, projectId: string): Promise<boolean> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { codeRepo: true } });
  return project?.codeRepo ? isMirrorBusy(config.dataDir, projectId, project.codeRepo) : false;
}

/** Checks now (tests, after "Still true"); concurrent callers for a project share one run. */
// Page reads never wait for git's network work: the mirror is fetched in the background.
export function refreshOnce(config: Config, db: Db, projectId: string): Promise<unknown> {
  const running = refreshing.get(projectId);
  if (running) return running;
  const next = refreshProjectFreshness(config, db, projectId, { waitForCode: false }).finally(() => refreshing.delete(projectId));
  refreshing.set(projectId, next);
  return next;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
