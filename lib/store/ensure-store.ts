import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";
import { AppError } from "../errors";
import {
  assertRemoteReachable,
  cloneRepository,
  displayRemote,
  initBareRepository,
  isBareRepository,
  isWorkingClone,
  originUrl,
  resolveRef,
  withRepoLock,
} from "./git";
import { fetchStore } from "./fetch-on-same-disk";

export type EnsureStoreResult = { createdStore: boolean; createdClone: boolean };

/**
 * Makes the team store usable: creates the embedded bare repository when missing, checks that a
 * configured remote can be read, and keeps the server's working clone of it. Never deletes or
 * re-creates anything that exists; a mismatch is reported with the variable to change.
 */
export async function ensureStore(config: Config): Promise<EnsureStoreResult> {
  const createdStore = config.isEmbeddedStore ? await ensureEmbeddedStore(config.storeRemote) : false;
  if (!config.isEmbeddedStore) await assertRemoteReachable(config.storeRemote);

  return withRepoLock(config.storeCloneDir, async () => {
    const createdClone = !existsSync(config.storeCloneDir);
    if (createdClone) {
      await cloneRepository(config.storeRemote, config.storeCloneDir);
    } else {
      await assertCloneOf(config);
      await fetchStore(config.storeCloneDir);
    }
    return { createdStore, createdClone };
  });
}

async function ensureEmbeddedStore(storeDir: string): Promise<boolean> {
  if (!existsSync(storeDir)) {
    await initBareRepository(storeDir);
    await pointHeadAtMain(storeDir);
    return true;
  }
  if (!isBareRepository(storeDir)) {
    throw new AppError(
      "STORE_UNAVAILABLE",
      `${storeDir} exists but is not a git repository; teammem left it untouched. Move it aside, ` +
        "or set TEAMMEM_STORE_REMOTE to the team store's git URL.",
      { details: { variable: "TEAMMEM_STORE_REMOTE" } },
    );
  }
  await pointHeadAtMain(storeDir);
  return false;
}

/**
 * The store's branch is main (docs/store.md). A bare store made by an older teammem or a git
 * whose default branch is master has HEAD on an unborn master, so a clone of it checks out
 * nothing. Only that case is changed, and only the HEAD pointer: a HEAD on a branch that has
 * commits is somebody's choice and stays, and no ref or object is ever touched.
 */
async function pointHeadAtMain(storeDir: string): Promise<void> {
  const headFile = path.join(storeDir, "HEAD");
  const match = /^ref: refs\/heads\/(.+)\n?$/.exec(await readFile(headFile, "utf8"));
  if (!match || match[1] === "main" || (await resolveRef(storeDir, `refs/heads/${match[1]}`))) return;
  const aside = `${headFile}.teammem-${process.pid}`;
  await writeFile(aside, "ref: refs/heads/main\n");
  await rename(aside, headFile);
}

async function assertCloneOf(config: Config): Promise<void> {
  const cloneOrigin = isWorkingClone(config.storeCloneDir) ? await originUrl(config.storeCloneDir) : null;
  if (cloneOrigin === config.storeRemote) return;
  throw new AppError(
    "STORE_UNAVAILABLE",
    `The store clone ${config.storeCloneDir} belongs to ${cloneOrigin ? displayRemote(cloneOrigin) : "no repository"}, ` +
      `not to ${displayRemote(config.storeRemote)}. Use another TEAMMEM_DATA_DIR for this store, or set ` +
      "TEAMMEM_STORE_REMOTE back; teammem does not delete the clone for you.",
    { details: { variable: "TEAMMEM_STORE_REMOTE" } },
  );
}
