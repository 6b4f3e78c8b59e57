import { linkSync, rmSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { besideMemoryDir } from "./find-team-memory-dir";
import { folderFinder, writeNewFile, type WriteTeamFile } from "./write-team-file";

/** A first pull's folder, filled beside the memory directory and then moved into place as team/. */
export type FreshTeamFolder = {
  write: WriteTeamFile;
  /** Moves the folder into place; returns the files that could not be placed (team/ appeared meanwhile and holds that name). */
  place(): Promise<string[]>;
};

const STAGING_PREFIX = "pull-";

/**
 * A member's first sync writes every file of the store (5,000 at 5,000 memories). Into a folder
 * nobody reads yet, a file needs no temporary name and no rename of its own, and the folder
 * appears as team/ at once, whole: a Claude Code session starting meanwhile sees no team memory
 * or all of it, never half (docs/store.md, "Member sync"). The folder is beside the memory directory, where
 * Claude Code does not look for memories, and on its file system (else null: the caller writes
 * file by file). Folders left by a sync that was killed are removed first: the sync lock is held.
 */
export async function startFreshTeamFolder(memoryDir: string, teamDir: string, token: string): Promise<FreshTeamFolder | null> {
  await mkdir(memoryDir, { recursive: true });
  const staging = besideMemoryDir(memoryDir, `${STAGING_PREFIX}${token}`);
  const [memoryInfo, besideInfo] = await Promise.all([stat(memoryDir), stat(path.dirname(staging))]);
  if (memoryInfo.dev !== besideInfo.dev) return null;
  await removeLeftFolders(memoryDir);
  await mkdir(staging);
  const folderOf = folderFinder(staging);
  const written: string[] = [];
  return {
    async write(relativePath, content, changedAt) {
      const folder = await folderOf(path.posix.dirname(relativePath).replace(/^\.$/, ""));
      const info = writeNewFile(path.join(folder, path.posix.basename(relativePath)), content, changedAt);
      written.push(relativePath);
      return info;
    },
    async place() {
      try {
        await rename(staging, teamDir);
        return [];
      } catch {
        return placeOneByOne(staging, teamDir, written);
      }
    },
  };
}

/**
 * team/ appeared while the folder was filled (Claude Code saved a team memory meanwhile) or the
 * rename failed: each file is linked into team/ on its own, never over a file that is there now
 * (a link keeps the inode and mtime the sync recorded). Those not placed are returned.
 */
async function placeOneByOne(staging: string, teamDir: string, written: string[]): Promise<string[]> {
  const folderOf = folderFinder(teamDir);
  const notPlaced: string[] = [];
  for (const relativePath of written) {
    try {
      const folder = await folderOf(path.posix.dirname(relativePath).replace(/^\.$/, ""));
      linkSync(path.join(staging, relativePath), path.join(folder, path.posix.basename(relativePath)));
    } catch {
      notPlaced.push(relativePath);
    }
  }
  rmSync(staging, { recursive: true, force: true });
  return notPlaced;
}

async function removeLeftFolders(memoryDir: string): Promise<void> {
  const prefix = path.basename(besideMemoryDir(memoryDir, STAGING_PREFIX));
  const names = await readdir(path.dirname(memoryDir)).catch(() => []);
  await Promise.all(names.filter((name) => name.startsWith(prefix)).map((name) => rm(path.join(path.dirname(memoryDir), name), { recursive: true, force: true })));
}
