import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";
import { AppError } from "../errors";
import {
  cloneRepository,
  displayRemote,
  initBareRepository,
  isBareRepository,
  isWorkingClone,
  originUrl,
  readStoreMain,
  resolveRef,
  withRepoLock,
} from "./git";
import { fetchStore } from "./fetch-on-same-disk";
import { repointMovedClone } from "./repoint-moved-clone";
import { assertStoreKeepsHistory, readCloneHead, storeOnThisDisk, type HistoryTraces } from "./store-history";

export type EnsureStoreResult = { createdStore: boolean; createdClone: boolean };

export type EnsureStoreOptions = {
  /**
   * The commit the read model records as the store's head (`readRecordedCommit`); null or absent
   * for a database that has none. A store that does not hold it stops start-up.
   */
  recordedCommit?: string | null;
};

/**
 * Makes the team store usable: creates the embedded bare repository when missing and nothing
 * knows of an earlier one, checks that the store can be read and still holds every commit the
 * database or the clone knows (docs/store.md, "When the store's history is missing"), and keeps
 * the server's working clone of it. Never deletes, re-creates or pushes anything that exists; a
 * mismatch is reported with what to change.
 */
export async function ensureStore(config: Config, options: EnsureStoreOptions = {}): Promise<EnsureStoreResult> {
  const clone = config.storeCloneDir;
  return withRepoLock(clone, async () => {
    const createdClone = !existsSync(clone);
    if (!createdClone) await assertCloneOf(config, options.recordedCommit ?? null);
    const traces = { recordedCommit: options.recordedCommit ?? null, cloneHead: createdClone ? null : await readCloneHead(clone) };
    const createdStore = config.isEmbeddedStore ? await ensureEmbeddedStore(config, traces) : false;
    const storeMain = await readStoreMain(config.storeRemote);
    // A store on this disk is checked before anything is cloned from it; one elsewhere in the
    // clone, which needs its objects.
    const isOnThisDisk = storeOnThisDisk(config) !== null;
    if (createdClone && !isOnThisDisk) await cloneRepository(config.storeRemote, clone);
    await assertStoreKeepsHistory(config, traces, { kind: "present", main: storeMain });
    if (createdClone && isOnThisDisk) await cloneRepository(config.storeRemote, clone);
    if (!createdClone) await fetchStore(clone);
    return { createdStore, createdClone };
  });
}

async function ensureEmbeddedStore(config: Config, traces: HistoryTraces): Promise<boolean> {
  const storeDir = config.storeRemote;
  if (!existsSync(storeDir)) {
    // Created only where nothing knows of an earlier store: an empty one would start a new history.
    await assertStoreKeepsHistory(config, traces, { kind: "missing" });
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

async function assertCloneOf(config: Config, recordedCommit: string | null): Promise<void> {
  const clone = config.storeCloneDir;
  const cloneOrigin = isWorkingClone(clone) ? await originUrl(clone) : null;
  if (cloneOrigin === config.storeRemote) return;
  if (cloneOrigin !== null && (await repointMovedClone(config, cloneOrigin, recordedCommit))) return;
  // The clone is only a copy of the store: moved aside, it is cloned again on the next start.
  const found = cloneOrigin ? `belongs to ${displayRemote(cloneOrigin)}, not to ${displayRemote(config.storeRemote)}` : "is not a git clone";
  throw new AppError(
    "STORE_UNAVAILABLE",
    `The store clone ${clone} ${found}. If ${displayRemote(config.storeRemote)} is this data folder's team store, move ${clone} aside ` +
      `(mv ${clone} ${clone}.old) and start again: it is cloned from the store again${cloneOrigin ? `; otherwise set TEAMMEM_STORE_REMOTE back to ${displayRemote(cloneOrigin)}` : ""}. ` +
      "teammem does not delete the clone for you.",
    { details: { variable: "TEAMMEM_STORE_REMOTE" } },
  );
}
