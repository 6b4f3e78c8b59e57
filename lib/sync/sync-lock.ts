import { mkdir, open, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { besideMemoryDir } from "./find-team-memory-dir";

const POLL_MS = 100;

export type SyncLock = { release: () => Promise<void> };

/**
 * One sync per memory directory at a time: a lock file beside it holding the holder's pid. A
 * second sync waits up to `waitMs`, then gives up with "sync already running". A lock whose
 * process no longer runs (killed, machine restarted) is taken over.
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
      return { release: () => rm(lockFile, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!(await isHolderAlive(lockFile))) {
      await rm(lockFile, { force: true }); // the holder died: its lock means nothing any more
      continue;
    }
    if (Date.now() >= deadline) throw new AppError("CONFLICT", "sync already running for this memory directory; try again when it has finished.");
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function isHolderAlive(lockFile: string): Promise<boolean> {
  const pid = Number((await readFile(lockFile, "utf8").catch(() => "")).trim());
  // An empty file is a holder between creating and writing it: alive.
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
