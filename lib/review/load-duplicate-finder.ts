import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { onOwnCommit } from "../read-model/own-commit-listeners";
import { changedPaths, readBlobs } from "../store/git";
import { forEachYielding } from "../yield-to-event-loop";
import { isMemoryFile } from "../store/regenerate-project-index";
import { projectDir } from "../store/store-manifest";
import { DuplicateFinder } from "./find-duplicates";
import { OPEN_PROPOSAL_STATES } from "./proposal-types";
import { processWide } from "../process-wide";

/** A step the finder took: from `parent` to `commit`, re-indexing these memory paths. */
type FinderStep = { parent: string; commit: string; paths: string[] };
type CachedFinder = { commit: string; finder: DuplicateFinder; steps: FinderStep[] };

/** Steps remembered per finder: enough for the approvals of a busy queue since each one's checks ran. */
const MAX_STEPS = 256;

// Per instance (process: one for every bundle of this module), store and project, keyed by the
// read model's commit: a commit anywhere moves it, so a stale index is never used; moving
// forward re-indexes only the files the diff names.
const findersByProject = processWide("duplicateFinders", () => new Map<string, CachedFinder>());
const finderKey = (config: Config, projectId: string) => `${config.storeCloneDir}\0${projectId}`;

// Loads under way, by project and commit: a request arriving while the first build of 10,000
// memories runs (seconds) waits for it instead of starting its own.
const loading = processWide("duplicateFinderLoads", () => new Map<string, Promise<CachedFinder>>());

// A commit this instance just made, on the commit the finder is at: the finder takes the one file
// it changed (the same text git holds) and moves on, so the next check needs no diff from git.
// A commit id names its store's history, so the finder at its parent is the one to move.
onOwnCommit((own) => {
  for (const [key, cached] of findersByProject) {
    if (cached.commit !== own.parent || !key.endsWith(`\0${own.projectId}`)) continue; // elsewhere: the next load follows git
    if (own.content === null) cached.finder.remove(own.path);
    else cached.finder.put(own.path, own.content);
    remember(cached, { parent: own.parent, commit: own.commit, paths: [own.path] });
  }
});

function remember(cached: CachedFinder, step: FinderStep): void {
  cached.steps = [...cached.steps.slice(-(MAX_STEPS - 1)), step];
  cached.commit = step.commit;
}

/** The project's duplicate finder at the store's head as the read model records it. */
export async function loadDuplicateFinder(config: Config, db: Db, projectId: string): Promise<DuplicateFinder> {
  return (await loadDuplicateFinderAtHead(config, db, projectId)).finder;
}

export type FinderAtHead = {
  finder: DuplicateFinder;
  /** The commit it reflects; null for an empty store. */
  commit: string | null;
  /**
   * The memory paths that changed between `since` and `commit`, from the steps this finder took;
   * null when it cannot say (it was built after `since`, or `since` is not behind it here).
   */
  changedSince: (since: string) => string[] | null;
};

export async function loadDuplicateFinderAtHead(config: Config, db: Db, projectId: string): Promise<FinderAtHead> {
  const { commit } = await ensureReadModel(config, db);
  if (commit === null) return { finder: new DuplicateFinder(), commit: null, changedSince: () => null };
  const cacheKey = finderKey(config, projectId);
  const cached = findersByProject.get(cacheKey);
  const ready = cached?.commit === commit ? cached : await loadAt(config, db, projectId, cacheKey, commit);
  // The steps are copied now: a later step (another request's commit) must not join this answer.
  const steps = ready.commit === commit ? ready.steps : [];
  return { finder: ready.finder, commit, changedSince: (since) => pathsSince(steps, since, commit) };
}

function loadAt(config: Config, db: Db, projectId: string, cacheKey: string, commit: string): Promise<CachedFinder> {
  const key = `${cacheKey}\0${commit}`;
  let load = loading.get(key);
  if (!load) {
    load = (async () => {
      const cached = findersByProject.get(cacheKey);
      const advanced = cached ? await advance(config, projectId, cached, commit).catch(() => null) : null;
      const ready = advanced ?? { commit, finder: await build(config, db, projectId), steps: [] };
      findersByProject.set(cacheKey, ready);
      return ready;
    })().finally(() => loading.delete(key));
    loading.set(key, load);
  }
  return load;
}

/** The paths of the unbroken run of steps from `since` to `head`, or null when there is none. */
function pathsSince(steps: readonly FinderStep[], since: string, head: string): string[] | null {
  if (since === head) return [];
  const start = steps.findIndex((step) => step.parent === since);
  if (start === -1) return null;
  const run = steps.slice(start);
  if (run.at(-1)?.commit !== head || run.some((step, index) => index > 0 && step.parent !== run[index - 1]!.commit)) return null;
  return [...new Set(run.flatMap((step) => step.paths))];
}

/**
 * Builds the duplicate finders of the projects that review proposals, one after another, so
 * that the first submit or approval after a server starts does not wait seconds for it (at
 * 10,000 memories the build reads and indexes every memory). Projects with proposals waiting
 * come first; then every other project that has had one (a project whose queue is empty at
 * start still gets its next proposal soon: the first submit once waited 2 s). Started in the
 * background.
 */
export async function warmDuplicateFinders(config: Config, db: Db): Promise<void> {
  const [open, reviewed] = await Promise.all([
    db.proposal.groupBy({ by: ["projectId"], where: { state: { in: [...OPEN_PROPOSAL_STATES] } } }),
    db.proposal.groupBy({ by: ["projectId"] }),
  ]);
  const projectIds = new Set([...open, ...reviewed].map((group) => group.projectId));
  for (const projectId of projectIds) await loadDuplicateFinder(config, db, projectId);
}

async function advance(config: Config, projectId: string, cached: CachedFinder, commit: string): Promise<CachedFinder> {
  const prefix = `${projectDir(projectId)}/`;
  const changes = (await changedPaths(config.storeCloneDir, cached.commit, commit, prefix)).filter((change) => isMemoryFile(change.path.slice(prefix.length)));
  const texts = await readBlobs(config.storeCloneDir, [...new Set(changes.flatMap((change) => (change.blob ? [change.blob] : [])))]);
  for (const change of changes) {
    const text = change.blob ? texts.get(change.blob) : undefined;
    if (text !== undefined) cached.finder.put(change.path.slice(prefix.length), text);
    else cached.finder.remove(change.path.slice(prefix.length));
  }
  remember(cached, { parent: cached.commit, commit, paths: changes.map((change) => change.path.slice(prefix.length)) });
  return cached;
}

async function build(config: Config, db: Db, projectId: string): Promise<DuplicateFinder> {
  const rows = await db.storeMemory.findMany({ where: { projectId }, select: { path: true, blob: true } });
  const texts = await readBlobs(config.storeCloneDir, rows.map((row) => row.blob));
  const finder = new DuplicateFinder();
  // Built in slices (10,000 memories took seconds of one thread): requests run in between.
  await forEachYielding(rows, 250, (row) => {
    const text = texts.get(row.blob);
    if (text !== undefined) finder.put(row.path, text);
  });
  return finder;
}
