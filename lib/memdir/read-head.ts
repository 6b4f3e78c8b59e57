import { open } from "node:fs/promises";

const CHUNK_BYTES = 4096;
/** Guards against a file with no newlines at all: 30 lines never need more than this. */
export const MAX_HEAD_BYTES = 64 * 1024;

export type FileHead = {
  /** The first lines, joined with the file's own line ends (no trailing partial line beyond them). */
  text: string;
  mtime: Date;
  size: number;
  /** How many bytes were actually read: a 6 MB memory costs no more than its first lines (S2). */
  bytesRead: number;
};

/**
 * Reads only the first `maxLines` lines of a file, with its mtime from the same open handle
 * (S2: read-then-sort, one pass).
 */
export async function readHead(filePath: string, maxLines: number): Promise<FileHead> {
  const handle = await open(filePath, "r");
  try {
    const info = await handle.stat();
    const chunks: Buffer[] = [];
    let bytesRead = 0;
    let newlines = 0;
    while (newlines < maxLines && bytesRead < MAX_HEAD_BYTES && bytesRead < info.size) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, MAX_HEAD_BYTES - bytesRead));
      const { bytesRead: count } = await handle.read(chunk, 0, chunk.length, bytesRead);
      if (count === 0) break;
      chunks.push(chunk.subarray(0, count));
      bytesRead += count;
      newlines += countNewlines(chunk, count);
    }
    const text = Buffer.concat(chunks, bytesRead).toString("utf8").split("\n").slice(0, maxLines).join("\n");
    return { text, mtime: info.mtime, size: info.size, bytesRead };
  } finally {
    await handle.close();
  }
}

function countNewlines(chunk: Buffer, length: number): number {
  let count = 0;
  for (let index = chunk.indexOf(0x0a); index !== -1 && index < length; index = chunk.indexOf(0x0a, index + 1)) count++;
  return count;
}
