import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";
import { log } from "../log";
import { isAncestor, isBareRepository, readStoreMain, restartBatchReader, setOriginUrl } from "./git";
import { forgetStoreOf, localPath } from "./push-on-same-disk";
import { readCloneHead } from "./store-history";

/**
 * A data folder moved or restored to another path keeps its store-clone pointing at the old
 * path's store.git (its origin, and the objects it borrows through `objects/info/alternates`),
 * and start-up refused it with advice that no longer worked once the old path was gone. When the
 * clone's origin is an embedded store by the same name (`store.git`) and this data folder's
 * store.git holds everything the clone and the database know of the store (so nothing is left
 * behind at the old path), both are the same data folder's own: the clone is pointed at the store
 * beside it, said in the log, and true is returned. Anything else is left alone (false) for the
 * caller to report.
 */
export async function repointMovedClone(config: Config, cloneOrigin: string, recordedCommit: string | null): Promise<boolean> {
  const clone = config.storeCloneDir;
  const oldStore = localPath(cloneOrigin);
  const newStore = config.storeRemote;
  if (!config.isEmbeddedStore || oldStore === null || path.basename(oldStore) !== path.basename(newStore) || !isBareRepository(newStore)) return false;
  if (!(await holdsEveryCommit(newStore, [await readCloneHead(clone), recordedCommit]))) return false;

  await setOriginUrl(clone, newStore);
  await replaceBorrowedObjects(clone, path.join(oldStore, "objects"), path.join(newStore, "objects"));
  forgetStoreOf(clone);
  restartBatchReader(clone);
  log("warn", "store.clone_repointed", { clone, from: cloneOrigin, to: newStore, reason: "the data folder moved with its store.git" });
  return true;
}

/** The store's main holds each of the commits (those that are not null). */
async function holdsEveryCommit(store: string, commits: (string | null)[]): Promise<boolean> {
  const known = commits.filter((commit): commit is string => commit !== null);
  if (known.length === 0) return true;
  const main = await readStoreMain(store);
  if (main === null) return false;
  for (const commit of known) if (commit !== main && !(await isAncestor(store, commit, main))) return false;
  return true;
}

/** The clone's alternates line for the old store's objects becomes the new store's (written whole, then renamed into place). */
async function replaceBorrowedObjects(clone: string, oldObjects: string, newObjects: string): Promise<void> {
  const objectsDir = path.join(clone, ".git", "objects");
  const file = path.join(objectsDir, "info", "alternates");
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (text === null) return;
  const lines = text.split("\n").filter(Boolean);
  const kept = lines.map((line) => (path.resolve(objectsDir, line) === path.resolve(oldObjects) ? newObjects : line));
  if (kept.every((line, index) => line === lines[index])) return;
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, [...new Set(kept)].join("\n") + "\n");
  await rename(temporary, file);
}
