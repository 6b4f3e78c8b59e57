import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { resolveRefQuickly } from "../store/git";
import { MAIN, refreshStore } from "../store/read-store";
import { readRecordedCommit, syncReadModel } from "./sync-read-model";

export type ReadModelState = { commit: string | null };

/** Per clone: the (clone head, recorded commit) pair this instance last found needing no work. */
const settled = new Map<string, string>();

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
    const sync = await syncReadModel(config, db);
    settled.set(config.storeCloneDir, `${head}|${sync.commit}`);
    return { commit: sync.commit };
  } catch (error) {
    // The rows of the recorded commit are still true of that commit: serve them, and try again on the next read.
    if (recorded === null) throw error;
    log("warn", "read_model.sync_failed", { name: (error as Error)?.name ?? "unknown", recorded });
    return { commit: recorded };
  }
}
