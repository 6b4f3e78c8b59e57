import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const CHUNK_BYTES = 4096;
/** Guards against a file with no newlines at all: 30 lines never need more than this. */
export const MAX_HEAD_BYTES = 64 * 1024;

export type FileHead = {
  /** The first lines, joined with the file's own line ends. */
  text: string;
  mtime: Date;
  size: number;
  /** How many bytes were actually read: a 6 MB memory costs no more than its first lines (S2). */
  bytesRead: number;
};

/** Reads only the first `maxLines` lines of a file, with its mtime (S2). */
export async function readHead(filePath: string, maxLines: number): Promise<FileHead> {
  return readHeadSync(filePath, maxLines);
}

/**
 * The same, blocking, with the mtime from the same descriptor (S2: read-then-sort, one pass).
 * Through the promise API each file costs four thread-pool round trips (open, fstat, read,
 * close), which measured five times slower than these calls over 10,000 files; one file takes
 * microseconds, and the scan yields to the event loop between batches.
 */
export function readHeadSync(filePath: string, maxLines: number): FileHead {
  const fd = openSync(filePath, "r");
  try {
    const info = fstatSync(fd);
    const chunks: Buffer[] = [];
    let bytesRead = 0;
    let newlines = 0;
    while (newlines < maxLines && bytesRead < MAX_HEAD_BYTES && bytesRead < info.size) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, MAX_HEAD_BYTES - bytesRead));
      const count = readSync(fd, chunk, 0, chunk.length, bytesRead);
      if (count === 0) break;
      chunks.push(chunk.subarray(0, count));
      bytesRead += count;
      newlines += countNewlines(chunk, count);
    }
    const text = Buffer.concat(chunks, bytesRead).toString("utf8").split("\n").slice(0, maxLines).join("\n");
    return { text, mtime: info.mtime, size: info.size, bytesRead };
  } finally {
    closeSync(fd);
  }
}

function countNewlines(chunk: Buffer, length: number): number {
  let count = 0;
  for (let index = chunk.indexOf(0x0a); index !== -1 && index < length; index = chunk.indexOf(0x0a, index + 1)) count++;
  return count;
}
