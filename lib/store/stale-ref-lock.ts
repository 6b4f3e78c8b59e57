import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { log } from "../log";
import { localStoreOf } from "./push-on-same-disk";

/**
 * Git holds a ref's lock for the milliseconds of one update; teammem's own pushes take and drop it
 * within one step, under the store lease. A lock a minute old was left by a process that died.
 */
export const STALE_REF_LOCK_MS = 60_000;

export type MainLock = { status: "none" } | { status: "removed" } | { status: "held"; lockFile: string; ageSeconds: number };

/**
 * After a push to the store was refused: is the store's main locked (`refs/heads/main.lock`,
 * docs/store.md, "Pushing to a store on the same disk")? The caller holds the store lease, so no
 * teammem process is half-way through moving main; a lock older than STALE_REF_LOCK_MS was left
 * by a git process that is gone and is removed (logged), and the caller tries again. A younger one
 * is somebody's: the caller names it if it is still there after its last attempt. A store
 * elsewhere has locks only its host can see: "none".
 */
export async function releaseStaleMainLock(clone: string, now: number = Date.now()): Promise<MainLock> {
  const store = await localStoreOf(clone);
  if (!store) return { status: "none" };
  const lockFile = path.join(store, "refs", "heads", "main.lock");
  const info = await stat(lockFile).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (!info) return { status: "none" };
  const ageSeconds = Math.max(0, Math.round((now - info.mtimeMs) / 1000));
  if (!info.isFile() || now - info.mtimeMs < STALE_REF_LOCK_MS) return { status: "held", lockFile, ageSeconds };
  await rm(lockFile, { force: true });
  log("warn", "store.stale_ref_lock_removed", { lockFile, ageSeconds });
  return { status: "removed" };
}

/** The answer when main stayed locked through every attempt: which file, and what to do about it. */
export function mainLockedError(lock: Extract<MainLock, { status: "held" }>): AppError {
  log("warn", "store.ref_locked", { lockFile: lock.lockFile, ageSeconds: lock.ageSeconds });
  return new AppError(
    "STORE_UNAVAILABLE",
    `The team store's main branch is locked by ${lock.lockFile} (made ${lock.ageSeconds} s ago by another git command), so nothing was committed. ` +
      "If no git command is working on the store, remove that file and try again; teammem removes such a lock itself once it is a minute old.",
    { details: { lockFile: lock.lockFile } },
  );
}
