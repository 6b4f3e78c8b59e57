import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import { assertStoreCloneUsable } from "../store/assert-store-clone-usable";
import { refreshStore } from "../store/read-store";
import { readRecordedCommit, rebuildReadModel } from "./sync-read-model";

export type ReindexResult = {
  /** The commit the rows now reflect; null only for a store with no commits that nothing recorded either. */
  commit: string | null;
  memories: number;
  /** Why the store could not be fetched, when the rebuild used the clone's last fetched state. */
  storeProblem: string | null;
};

/**
 * `teammem reindex`: fetches the store and rebuilds every row of the read model from git at its
 * head; when the fetch fails, from the clone's last fetched state, and says why. It never reports
 * "empty" for a store it could not see: a damaged clone, or no commits where the read model
 * records one, rebuilds nothing and throws STORE_UNAVAILABLE naming what is wrong.
 */
export async function reindexReadModel(config: Config, db: Db): Promise<ReindexResult> {
  await assertStoreCloneUsable(config);
  const storeProblem = await refreshStore(config, { mustReach: true }).then(
    () => null,
    (error: unknown) => {
      if (isAppError(error) && error.code === "STORE_UNAVAILABLE") return error.message;
      throw error;
    },
  );
  const rebuilt = await rebuildReadModel(config, db);
  if (rebuilt.commit !== null) return { commit: rebuilt.commit, memories: rebuilt.changedFiles, storeProblem };
  if (storeProblem !== null) {
    throw new AppError("STORE_UNAVAILABLE", `Nothing was rebuilt: the team store could not be fetched and this server has no copy of its main branch (${storeProblem.replace(/\.$/, "")}).`);
  }
  const recorded = await readRecordedCommit(db);
  if (recorded !== null) {
    throw new AppError(
      "STORE_UNAVAILABLE",
      `Nothing was rebuilt: the team store has no commits, although the read model records commit ${recorded.slice(0, 12)} as its head, and the read model keeps its rows. ` +
        'npm start says what still holds that history and how to push it back (docs/store.md, "When the store\'s history is missing").',
    );
  }
  return { commit: null, memories: 0, storeProblem };
}
