import path from "node:path";
import { FRONTMATTER_MAX_LINES, parseMemoryHeader, type FrontmatterStatus, type MemoryType } from "./frontmatter";
import { describeError, listMarkdownFiles, type SkippedFile } from "./list-markdown-files";
import { readHead } from "./read-head";

export type { SkippedFile } from "./list-markdown-files";

/** S4: only the newest 200 memories take part in recall. */
export const MAX_MEMORY_FILES = 200;
/** Files open at once: enough to keep the disk busy, far below any file-descriptor limit. */
const READ_CONCURRENCY = 64;

export type ScannedMemory = {
  /** Relative to the scanned directory, with `/` separators (C5). */
  path: string;
  name: string | null;
  description: string | null;
  type: MemoryType | null;
  mtime: Date;
  size: number;
  /** How the frontmatter in the first 30 lines was read (C4); lint reports the bad ones. */
  frontmatter: FrontmatterStatus;
};

export type ScanResult = {
  /** Newest first: the newest 200, or every memory with `all` (S4). */
  memories: ScannedMemory[];
  skipped: SkippedFile[];
  /** Every memory that was read, including those past the 200 kept for recall. */
  total: number;
};

export type ScanOptions = { all?: boolean };

/**
 * S1-S4, C5: every `*.md` except MEMORY.md at any depth, first 30 lines and mtime read in one
 * parallel pass, newest first. A file that cannot be read is reported as skipped, never thrown
 * (S3); a symlink is reported and not followed.
 */
export async function scanMemoryDir(memoryDir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const listing = await listMarkdownFiles(memoryDir);
  const skipped = [...listing.skipped];
  const memories: ScannedMemory[] = [];
  await forEachConcurrently(listing.files, READ_CONCURRENCY, async (relativePath) => {
    try {
      memories.push(await readMemoryHeader(memoryDir, relativePath));
    } catch (error) {
      skipped.push({ path: relativePath, reason: "unreadable", message: describeError(error) });
    }
  });
  // S2: read everything first, then sort; ties broken by path so output is stable.
  memories.sort((a, b) => b.mtime.getTime() - a.mtime.getTime() || a.path.localeCompare(b.path));
  skipped.sort((a, b) => a.path.localeCompare(b.path));
  return { memories: options.all ? memories : memories.slice(0, MAX_MEMORY_FILES), skipped, total: memories.length };
}

async function readMemoryHeader(memoryDir: string, relativePath: string): Promise<ScannedMemory> {
  const head = await readHead(path.join(memoryDir, relativePath), FRONTMATTER_MAX_LINES);
  const header = parseMemoryHeader(head.text);
  return {
    path: relativePath,
    name: header.name,
    description: header.description,
    type: header.type,
    mtime: head.mtime,
    size: head.size,
    frontmatter: header.status,
  };
}

async function forEachConcurrently<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
