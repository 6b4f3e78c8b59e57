import { open } from "node:fs/promises";

const CHUNK_BYTES = 4096;
/** Guards against a file with no newlines at all: 30 lines never need more than this. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * Reads only the first `maxLines` lines of a file (S2: a 6 MB memory costs no more than its
 * frontmatter), returning them with the file's mtime from the same open handle.
 */
export async function readHead(filePath: string, maxLines: number): Promise<{ text: string; mtime: Date; size: number }> {
  const handle = await open(filePath, "r");
  try {
    const info = await handle.stat();
    const chunks: Buffer[] = [];
    let bytes = 0;
    let newlines = 0;
    while (newlines < maxLines && bytes < MAX_HEAD_BYTES) {
      const chunk = Buffer.alloc(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, bytes);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      bytes += bytesRead;
      for (let index = 0; index < bytesRead; index++) if (chunk[index] === 0x0a) newlines++;
    }
    const text = Buffer.concat(chunks).toString("utf8").split("\n").slice(0, maxLines).join("\n");
    return { text, mtime: info.mtime, size: info.size };
  } finally {
    await handle.close();
  }
}
