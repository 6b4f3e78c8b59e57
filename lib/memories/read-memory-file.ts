import { lstat, open, realpath } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { REGULAR_FILE_FLAGS } from "../memdir/read-regular-file";

/** The dashboard shows at most this much of one file; a memory longer than that is not a memory. */
export const MAX_SHOWN_BYTES = 256 * 1024;

export type MemoryFileText = { text: string; mtime: Date; size: number; isCut: boolean };

/**
 * Reads one file inside a memory directory. Like a scan (S3, C12) it never follows a symlink,
 * and it refuses anything whose real location is outside the directory.
 */
export async function readMemoryFile(memoryDir: string, memoryPath: string): Promise<MemoryFileText> {
  const notFound = new AppError("NOT_FOUND", `There is no memory "${memoryPath.slice(0, 200)}" in this directory.`);
  const filePath = path.join(memoryDir, memoryPath);
  const info = await lstat(filePath).catch(() => null);
  if (!info?.isFile()) throw notFound; // missing, a folder, or a symlink (never followed)
  const [rootReal, fileReal] = await Promise.all([realpath(memoryDir), realpath(filePath)]);
  if (!fileReal.startsWith(rootReal + path.sep)) throw notFound; // a folder on the way leads out
  // Never through a link or into a pipe swapped in since the look above (a pipe would hang the page).
  const handle = await open(fileReal, REGULAR_FILE_FLAGS).catch(() => Promise.reject(notFound));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notFound;
    const length = Math.min(stats.size, MAX_SHOWN_BYTES);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return { text: buffer.subarray(0, bytesRead).toString("utf8"), mtime: stats.mtime, size: stats.size, isCut: stats.size > bytesRead };
  } finally {
    await handle.close();
  }
}
