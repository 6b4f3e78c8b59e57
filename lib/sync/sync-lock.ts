import { lstat, mkdir, open, readFile, rm, utimes } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { besideMemoryDir } from "./find-team-memory-dir";

const POLL_MS = 100;
/** The holder touches its lock this often while it works... */
const HEARTBEAT_MS = 15_000;
/** ...so a lock untouched for this long is left over, whatever its pid (pids are reused). */
const ABANDONED_AFTER_MS = 60_000;
/** A holder writes its pid right after creating the file: empty or unreadable for longer, it died there. */
const UNWRITTEN_AFTER_MS = 5_000;

export type SyncLock = { release: () => Promise<void> };

/**
 * One sync per memory directory at a time: a lock file beside it holding the holder's pid,
 * touched while the sync runs. A second sync waits up to `waitMs`, then gives up with "sync
 * already running", naming the file. A lock is taken over when its process no longer runs, when
 * it was never written, or when nobody touched it for a minute (its pid may belong to another
 * process by now).
 */
export async function acquireSyncLock(memoryDir: string, waitMs: number): Promise<SyncLock> {
  const lockFile = besideMemoryDir(memoryDir, "sync.lock");
  const deadline = Date.now() + waitMs;
  await mkdir(path.dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      const handle = await open(lockFile, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return holdLock(lockFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(lockFile);
    if (holder.isNotAFile) throw new AppError("INVALID_INPUT", `${lockFile} is a folder (or other non-file) where teammem keeps its sync lock file: move it aside (or delete it if it holds nothing you need) and sync again.`);
    if (holder.isLeftOver) {
      await rm(lockFile, { force: true }); // the holder is gone: its lock means nothing any more
      continue;
    }
    if (Date.now() >= deadline) {
      throw new AppError("CONFLICT", `sync already running for this memory directory${holder.pid ? ` (process ${holder.pid})` : ""}; try again when it has finished. If no teammem sync runs, delete ${lockFile}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function holdLock(lockFile: string): SyncLock {
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lockFile, now, now).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    release: async () => {
      clearInterval(heartbeat);
      await rm(lockFile, { force: true });
    },
  };
}

type Holder = { pid: number | null; isLeftOver: boolean; isNotAFile?: boolean };

async function readHolder(lockFile: string): Promise<Holder> {
  const [text, info] = await Promise.all([readFile(lockFile, "utf8").catch(() => null), lstat(lockFile).catch(() => null)]);
  if (!info) return { pid: null, isLeftOver: false }; // released meanwhile: try again
  // A folder left by a botched cleanup or restore: never taken over (it is not ours to delete).
  if (!info.isFile()) return { pid: null, isLeftOver: false, isNotAFile: true };
  const age = Date.now() - info.mtimeMs;
  const pid = Number(text?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return { pid: null, isLeftOver: age > UNWRITTEN_AFTER_MS };
  return { pid, isLeftOver: age > ABANDONED_AFTER_MS || !isRunning(pid) };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
