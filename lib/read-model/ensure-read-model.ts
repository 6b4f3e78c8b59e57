import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { resolveRefQuickly } from "../store/git";
import { MAIN, refreshStore } from "../store/read-store";
import { readRecordedCommit, syncReadModel, type ReadModelSync } from "./sync-read-model";
import { processWide } from "../process-wide";

export type ReadModelState = { commit: string | null };

/** A catch-up that has run longer than reads wait: they serve the recorded commit meanwhile. */
export type ReadModelCatchUp = { since: Date; recorded: string };

type RunningSync = { done: Promise<ReadModelSync>; startedAt: number; recorded: string | null };

/** Per clone: the (clone head, recorded commit) pair this instance last found needing no work. */
const settled = processWide("readModelSettled", () => new Map<string, string>());
/** Per clone: the catch-up under way, which every read arriving meanwhile joins. */
const syncing = processWide("readModelCatchUps", () => new Map<string, RunningSync>());

// After a large push from outside teammem every request found the read model behind and started
// its own catch-up over the same thousands of commits; one is enough.
function syncOnce(config: Config, db: Db, recorded: string | null): RunningSync {
  const clone = config.storeCloneDir;
  let running = syncing.get(clone);
  if (!running) {
    const done = syncReadModel(config, db).finally(() => syncing.delete(clone));
    // Logged here, once, rather than by each read that waited (some stopped waiting).
    done.catch((error: unknown) => log("warn", "read_model.sync_failed", { name: (error as Error)?.name ?? "unknown", recorded }));
    running = { done, startedAt: Date.now(), recorded };
    syncing.set(clone, running);
  }
  return running;
}

/** The catch-up reads are not waiting for, if one is under way on this instance (pages say so). */
export function readModelCatchUp(config: Config): ReadModelCatchUp | null {
  const running = syncing.get(config.storeCloneDir);
  if (!running || running.recorded === null || Date.now() - running.startedAt < config.catchUpWaitMs) return null;
  return { since: new Date(running.startedAt), recorded: running.recorded };
}

/**
 * What every read of team memory calls first: fetch the store (at most every few seconds; an
 * unreachable remote leaves the last known state) and bring the read model to the clone's head.
 * When the clone's head equals the recorded commit, or neither moved since the last check (this
 * clone is behind a commit another instance recorded), no git process runs: a read costs one
 * small query and one file read. A catch-up of thousands of commits pushed from outside teammem
 * takes many seconds (git's log of them alone): reads wait for it at most `catchUpWaitMs` (2 s), then
 * serve the rows of the recorded commit, which are still exactly that commit's, until it lands.
 */
export async function ensureReadModel(config: Config, db: Db): Promise<ReadModelState> {
  await refreshStore(config);
  const [head, recorded] = await Promise.all([resolveRefQuickly(config.storeCloneDir, MAIN), readRecordedCommit(db)]);
  if (recorded !== null && (head === recorded || settled.get(config.storeCloneDir) === `${head}|${recorded}`)) return { commit: recorded };
  const running = syncOnce(config, db, recorded);
  try {
    const sync = recorded === null ? await running.done : await withinWait(running, config.catchUpWaitMs);
    if (sync === null) return { commit: recorded };
    settled.set(config.storeCloneDir, `${head}|${sync.commit}`);
    return { commit: sync.commit };
  } catch (error) {
    // The rows of the recorded commit are still true of that commit: serve them, and try again on the next read.
    if (recorded === null) throw error;
    return { commit: recorded };
  }
}

/** The catch-up's result if it lands within what is left of the wait; null when reads stop waiting. */
async function withinWait(running: RunningSync, waitMs: number): Promise<ReadModelSync | null> {
  const left = waitMs - (Date.now() - running.startedAt);
  if (left <= 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left)));
  try {
    return await Promise.race([running.done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
