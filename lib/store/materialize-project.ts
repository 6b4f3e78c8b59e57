import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";
import { AppError } from "../errors";
import { isSafeMemoryKey } from "../memdir/validate-memory-key";
import { lastChangeTimes, listTree, readBlobs, resolveRef, withRepoLock } from "./git";
import { projectDir } from "./store-manifest";

const MAIN = "refs/remotes/origin/main";
const SNAPSHOTS_KEPT = 2;

/**
 * A read-only copy of one project's team memory at the store's current head, laid out as a
 * Claude Code memory directory (mtime = when each file was last written), so the same scan and
 * recall code that serves a member's machine serves the server. One folder per commit: reused
 * while the head does not move, built aside and renamed into place when it does.
 */
export async function materializeProject(config: Config, projectId: string): Promise<{ dir: string; commit: string }> {
  const commit = await resolveRef(config.storeCloneDir, MAIN);
  if (!commit) throw new AppError("NOT_FOUND", `The team store has no memory for "${projectId}" yet.`);
  const projectSnapshots = path.join(config.dataDir, "snapshots", projectId);
  const dir = path.join(projectSnapshots, commit);
  if (existsSync(dir)) return { dir, commit };

  return withRepoLock(config.storeCloneDir, async () => {
    if (existsSync(dir)) return { dir, commit };
    const prefix = `${projectDir(projectId)}/`;
    const entries = (await listTree(config.storeCloneDir, commit, prefix)).filter((entry) => isSafeMemoryKey(entry.path.slice(prefix.length)));
    const [contents, times] = await Promise.all([
      readBlobs(config.storeCloneDir, entries.map((entry) => entry.blob)),
      lastChangeTimes(config.storeCloneDir, commit, prefix),
    ]);
    const staging = `${dir}.building-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    for (const entry of entries) {
      const target = path.join(staging, entry.path.slice(prefix.length));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, contents.get(entry.blob) ?? "");
      const written = times.get(entry.path);
      if (written) await utimes(target, written, written);
    }
    await mkdir(staging, { recursive: true }); // a project with no files is still a (empty) directory
    await rename(staging, dir);
    await pruneOldSnapshots(projectSnapshots, commit);
    return { dir, commit };
  });
}

// Old snapshots are derived data (git has everything); keep only the newest few.
async function pruneOldSnapshots(projectSnapshots: string, current: string): Promise<void> {
  const entries = await readdir(projectSnapshots, { withFileTypes: true });
  const snapshots = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && !entry.name.includes(".building-"))
      .map(async (entry) => ({ name: entry.name, mtime: (await stat(path.join(projectSnapshots, entry.name))).mtimeMs })),
  );
  snapshots.sort((a, b) => b.mtime - a.mtime);
  for (const stale of snapshots.slice(SNAPSHOTS_KEPT)) {
    if (stale.name !== current) await rm(path.join(projectSnapshots, stale.name), { recursive: true, force: true });
  }
}
