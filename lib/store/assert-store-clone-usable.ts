import { stat } from "node:fs/promises";
import type { Config } from "../config";
import { AppError } from "../errors";
import { isReadableRepository, isWorkingClone } from "./git";

/**
 * The server's clone as a rebuild of the read model needs it: a git working folder git can read.
 * Anything else is named, with the way out: the clone is only a copy, so it can be moved aside
 * and npm start clones the store again. Without this check a damaged clone read as a store with
 * no commits ("the read model is empty").
 */
export async function assertStoreCloneUsable(config: Pick<Config, "storeCloneDir">): Promise<void> {
  const clone = config.storeCloneDir;
  const info = await stat(clone).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw new AppError("STORE_UNAVAILABLE", `The store clone ${clone} cannot be read (${error.code ?? "unknown error"}); nothing was rebuilt.`, { cause: error });
  });
  if (!info) {
    throw new AppError("STORE_UNAVAILABLE", `The store clone ${clone} does not exist, so nothing was rebuilt: run npm start, which clones the team store again, then run \`teammem reindex\` again.`);
  }
  const problem = !info.isDirectory() ? "it is not a folder" : !isWorkingClone(clone) ? "it has no .git folder" : !(await isReadableRepository(clone)) ? "git cannot read it" : null;
  if (problem === null) return;
  throw new AppError(
    "STORE_UNAVAILABLE",
    `The store clone ${clone} is damaged (${problem}), so nothing was rebuilt and the read model keeps its rows. ` +
      `Move it aside (mv ${clone} ${clone}.damaged) and run npm start, which clones the team store again; then run \`teammem reindex\` again.`,
  );
}
