import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { resolveRefQuickly } from "../store/git";
import { MAIN, refreshStore } from "../store/read-store";
import { readRecordedCommit, syncReadModel, type ReadModelSync } from "./sync-read-model";
import { processWide } from "../process-wide";

export type ReadModelState = { commit: string | null };

/** Per clone: the (clone head, recorded commit) pair this instance last found needing no work. */
const settled = processWide("readModelSettled", () => new Map<string, string>());
/** Per clone: the catch-up under way, which every read arriving meanwhile waits for. */
const syncing = processWide("readModelSyncs", () => new Map<string, Promise<ReadModelSync>>());

// After a large push from outside teammem every request found the read model behind and started
// its own catch-up over the same thousands of commits; one is enough.
function syncOnce(config: Config, db: Db): Promise<ReadModelSync> {
  const clone = config.storeCloneDir;
  let running = syncing.get(clone);
  if (!running) {
    running = syncReadModel(config, db).finally(() => syncing.delete(clone));
    syncing.set(clone, running);
  }
  return running;
}

/**
 * What every read of team memory calls first: fetch the store (at most every few seconds; an
 * unreachable remote leaves the last known state) and bring the read model to the clone's head.
 * When the clone's head equals the recorded commit, or neither moved since the last check (this
 * clone is behind a commit another instance recorded), no git process runs: a read costs one
 * small query and one file read.
 */
export async function ensureReadModel(config: Config, db: Db): Promise<ReadModelState> {
  await refreshStore(config);
  const [head, recorded] = await Promise.all([resolveRefQuickly(config.storeCloneDir, MAIN), readRecordedCommit(db)]);
  if (recorded !== null && (head === recorded || settled.get(config.storeCloneDir) === `${head}|${recorded}`)) return { commit: recorded };
  try {
    const sync = await syncOnce(config, db);
    settled.set(config.storeCloneDir, `${head}|${sync.commit}`);
    return { commit: sync.commit };
  } catch (error) {
    // The rows of the recorded commit are still true of that commit: serve them, and try again on the next read.
    if (recorded === null) throw error;
    log("warn", "read_model.sync_failed", { name: (error as Error)?.name ?? "unknown", recorded });
    return { commit: recorded };
  }
}
