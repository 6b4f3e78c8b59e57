import { closeSync, fstatSync, futimesSync, openSync, writeFileSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { isInsideFolder } from "../memdir/is-inside-folder";
import { UnsafeMemoryPathError } from "../memdir/write-memory-file";
import { statOf } from "./scan-team-dir";
import type { SeenFile } from "./sync-state";

/** Writes one file of team/ with mtime = the store commit's time (A1); returns its size, mtime and inode (null with --dry-run). */
export type WriteTeamFile = (relativePath: string, content: string, changedAt: Date) => Promise<Pick<SeenFile, "size" | "mtimeMs" | "ino"> | null>;

/**
 * Creates `filePath` (which must not exist) with `content` and mtime `changedAt`; returns its
 * stat. Synchronous calls: measured on 5,000 files, 150–220 ms against 390–640 ms for 24 promise
 * chains in flight (each async call is a trip through libuv's four-thread pool); the sync has
 * nothing else to do meanwhile.
 */
export function writeNewFile(filePath: string, content: string, changedAt: Date): Pick<SeenFile, "size" | "mtimeMs" | "ino"> {
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
