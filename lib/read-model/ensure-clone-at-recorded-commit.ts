import type { Config } from "../config";
import type { Db } from "../db/client";
import { resolveRefQuickly } from "../store/git";
import { MAIN, refreshStore } from "../store/read-store";
import { ensureReadModel } from "./ensure-read-model";

/**
 * For a write that reads the store's files (a proposal's base): the read model may already hold a
 * commit another instance made while this clone has not fetched it yet (reads serve that commit's
 * rows, which is right for them). A base read from such a clone was a version behind: an edit of
 * a file the other instance had just added became a "new file" and then a false conflict. Then
 * the clone fetches now, once, instead of waiting for its next routine fetch.
 */
export async function ensureCloneAtRecordedCommit(config: Config, db: Db): Promise<void> {
  const { commit } = await ensureReadModel(config, db);
  if (commit === null || (await resolveRefQuickly(config.storeCloneDir, MAIN)) === commit) return;
  await refreshStore(config, { force: true });
}
