import { closeSync, constants, fstatSync, lstatSync, openSync, type Dirent, type Stats } from "node:fs";
import { lstat, open } from "node:fs/promises";

/**
 * How every memory file is opened. O_NONBLOCK: opening a named pipe for reading otherwise waits
 * for a writer, forever (`mkfifo MEMORY.md` hung lint). O_NOFOLLOW: a file swapped for a
 * symbolic link after it was listed is refused, not followed out of the directory (C12).
 * Windows has neither flag, nor named pipes in a folder.
 */
export const REGULAR_FILE_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** A memory path that names something other than a regular file: never read. */
export class NotRegularFileError extends Error {
  /** "a named pipe", "a folder", …, as describeFileKind says it. */
  readonly kind: string;
  readonly isSymbolicLink: boolean;

  constructor(found: Dirent | Stats) {
    const kind = describeFileKind(found);
    super(`not a regular file (${kind})`);
    this.name = "NotRegularFileError";
    this.kind = kind;
    this.isSymbolicLink = found.isSymbolicLink();
  }
}

/** What a directory entry is, in words, for "not a regular file (a named pipe)". */
export function describeFileKind(entry: Dirent | Stats): string {
  if (entry.isFIFO()) return "a named pipe";
  if (entry.isSocket()) return "a socket";
  if (entry.isCharacterDevice()) return "a character device";
  if (entry.isBlockDevice()) return "a block device";
  if (entry.isDirectory()) return "a folder";
  if (entry.isSymbolicLink()) return "a symbolic link, not followed";
  return "an unknown kind of file";
}

/**
 * Opens a file the listing saw as regular, with the flags above, and checks the descriptor: a
 * file replaced meanwhile by a pipe or a device is closed again, unread. The caller closes `fd`.
 */
export function openRegularFileSync(filePath: string): { fd: number; info: Stats } {
  let fd: number;
  try {
    fd = openSync(filePath, REGULAR_FILE_FLAGS);
  } catch (error) {
    throw explainRefusedLink(filePath, error);
  }
  const info = fstatSync(fd);
  if (info.isFile()) return { fd, info };
  closeSync(fd);
  throw new NotRegularFileError(info);
}

export type RegularFileBytes = { bytes: Buffer; info: Stats };

/**
 * A regular file named directly (an index, a file on the command line), at most `maxBytes` of it,
 * refused without being opened when it is a link, a pipe, a socket or a device, and checked
 * again on the descriptor, so a swap between the two looks cannot slip a pipe through.
 */
export async function readRegularFile(filePath: string, maxBytes = Number.POSITIVE_INFINITY): Promise<RegularFileBytes> {
  const before = await lstat(filePath);
  if (!before.isFile()) throw new NotRegularFileError(before);
  const handle = await open(filePath, REGULAR_FILE_FLAGS).catch((error: unknown) => {
    throw explainRefusedLink(filePath, error);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(info);
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { bytes: buffer.subarray(0, bytesRead), info };
  } finally {
    await handle.close();
  }
}

// O_NOFOLLOW refuses a link with ELOOP, which would otherwise read as "symbolic link loop".
function explainRefusedLink(filePath: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException | null)?.code !== "ELOOP") return error;
  const info = lstatSync(filePath, { throwIfNoEntry: false });
  return info?.isSymbolicLink() ? new NotRegularFileError(info) : error;
}
