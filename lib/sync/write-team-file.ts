import { closeSync, fstatSync, futimesSync, linkSync, lstatSync, openSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { isInsideFolder } from "../memdir/is-inside-folder";
import { UnsafeMemoryPathError } from "../memdir/write-memory-file";
import { statOf } from "./scan-team-dir";
import type { SeenFile } from "./sync-state";

type FileStat = Pick<SeenFile, "size" | "mtimeMs" | "ino">;

/**
 * What the sync saw of the file when it scanned team/: nothing there, or a file with this stat.
 * The write replaces only that; a file that changed since (Claude Code or the member saved it
 * while the sync ran) is never overwritten.
 */
export type SeenBefore = { isAbsent: true } | { stat: FileStat };

/** Writes one file of team/ with mtime = the store commit's time (A1); returns its size, mtime and inode (null with --dry-run). */
export type WriteTeamFile = (relativePath: string, content: string, changedAt: Date, seenBefore?: SeenBefore) => Promise<FileStat | null>;

/** The file in team/ is not what the scan saw: it was saved while the sync ran, and it stays. */
export class ChangedOnDiskError extends Error {
  constructor(relativePath: string) {
    super(`${relativePath} changed on disk while the sync ran`);
    this.name = "ChangedOnDiskError";
  }
}

/**
 * Moves a finished temporary file over `finalPath`, unless what is there is not what the scan
 * saw. A file that was absent gets a hard link, which fails if a file appeared meanwhile (where
 * the file system has no links, a look just before the rename); one the scan saw is looked at
 * just before the rename: the window left is a few microseconds, not the whole sync.
 */
export function placeTempFile(tempPath: string, finalPath: string, relativePath: string, seenBefore: SeenBefore | undefined): void {
  if (seenBefore && "isAbsent" in seenBefore) {
    try {
      linkSync(tempPath, finalPath);
      unlinkSync(tempPath);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new ChangedOnDiskError(relativePath);
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EXDEV") throw error;
      if (lstatSync(finalPath, { throwIfNoEntry: false })) throw new ChangedOnDiskError(relativePath);
    }
  } else if (seenBefore) {
    const now = lstatSync(finalPath, { throwIfNoEntry: false });
    if (!now || now.size !== seenBefore.stat.size || now.mtimeMs !== seenBefore.stat.mtimeMs || now.ino !== seenBefore.stat.ino) throw new ChangedOnDiskError(relativePath);
  }
  renameSync(tempPath, finalPath); // keeps inode and mtime
}

/**
 * Creates `filePath` (which must not exist) with `content` and mtime `changedAt`; returns its
 * stat. Synchronous calls: measured on 5,000 files, 150–220 ms against 390–640 ms for 24 promise
 * chains in flight (each async call is a trip through libuv's four-thread pool); the sync has
 * nothing else to do meanwhile.
 */
export function writeNewFile(filePath: string, content: string, changedAt: Date): FileStat {
  const descriptor = openSync(filePath, "wx");
  try {
    writeFileSync(descriptor, content);
    futimesSync(descriptor, changedAt, changedAt);
    return statOf(fstatSync(descriptor));
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The real path of a folder below `root` (created when missing), each folder made once per sync
 * and checked to stay inside `root`: a link leading out of it is refused.
 */
export function folderFinder(root: string): (relativeFolder: string) => Promise<string> {
  const folders = new Map<string, Promise<string>>();
  const folderOf = (relativeFolder: string): Promise<string> => {
    let folder = folders.get(relativeFolder);
    if (!folder) {
      folder = relativeFolder === "" ? mkdir(root, { recursive: true }).then(() => realpath(root)) : ensureFolderInside(folderOf, relativeFolder);
      folders.set(relativeFolder, folder);
    }
    return folder;
  };
  return folderOf;
}

/** Creates `relativeFolder` under its (already checked) parent; refuses a link leading out of team/. */
async function ensureFolderInside(folderOf: (relativeFolder: string) => Promise<string>, relativeFolder: string): Promise<string> {
  const [root, parent] = await Promise.all([folderOf(""), folderOf(path.posix.dirname(relativeFolder).replace(/^\.$/, ""))]);
  const next = path.join(parent, path.posix.basename(relativeFolder));
  await mkdir(next).catch((error: unknown) => {
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
  });
  const real = await realpath(next);
  if (!isInsideFolder(root, real)) throw new UnsafeMemoryPathError(relativeFolder, "a folder on the way is a link out of the memory directory");
  return real;
}
