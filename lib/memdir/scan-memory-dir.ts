import path from "node:path";
import { FRONTMATTER_MAX_LINES, readHeaderWithoutYaml, type FrontmatterStatus, type MemoryHeader, type MemoryType } from "./memory-header";
import { describeError, listMarkdownFiles, type SkippedFile } from "./list-markdown-files";
import { readHeadSync } from "./read-head";
import { NotRegularFileError } from "./read-regular-file";
import { compareCodeUnits } from "./compare-code-units";

export type { SkippedFile } from "./list-markdown-files";

/** S4: only the newest 200 memories take part in recall. */
export const MAX_MEMORY_FILES = 200;
/** Files read between two yields to the event loop (a few milliseconds of blocking at most). */
const READ_BATCH = 200;

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
 * pass, newest first. A file that cannot be read is reported as skipped, never thrown
 * (S3); a symlink is reported and not followed.
 */
export async function scanMemoryDir(memoryDir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const listing = await listMarkdownFiles(memoryDir);
  // In code-unit order (the default sort's, native), so the stable sort by mtime below leaves
  // ties in path order without a second comparison in JavaScript.
  listing.files.sort();
  const skipped = [...listing.skipped];
  const memories: ScannedMemory[] = [];
  // Heads only YAML can read, kept to be read once the YAML reader has loaded (memory-header.ts).
  const forYaml: { memory: ScannedMemory; text: string }[] = [];
  // S2: one pass over every file. Sync reads in batches beat the promise API five-fold here
  // (see read-head.ts and scripts/bench-scan.ts) while one file open at a time keeps clear of
  // file-descriptor limits.
  for (let start = 0; start < listing.files.length; start += READ_BATCH) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const relativePath of listing.files.slice(start, start + READ_BATCH)) {
      try {
        memories.push(readMemoryHeader(memoryDir, relativePath, forYaml));
      } catch (error) {
        // A file swapped for a pipe or a link since it was listed is named for what it now is.
        skipped.push({ path: relativePath, reason: "unreadable", message: error instanceof NotRegularFileError ? error.message : describeError(error) });
      }
    }
  }
  if (forYaml.length > 0) {
    const { parseMemoryHeader } = await import("./frontmatter");
    for (const { memory, text } of forYaml) setHeader(memory, parseMemoryHeader(text));
  }
  // S2: read everything first, then sort; ties stay in path order so output is stable.
  memories.sort((a, b) => b.mtime.getTime() - a.mtime.getTime());
  skipped.sort((a, b) => compareCodeUnits(a.path, b.path));
  return { memories: options.all ? memories : memories.slice(0, MAX_MEMORY_FILES), skipped, total: memories.length };
}

function readMemoryHeader(memoryDir: string, relativePath: string, forYaml: { memory: ScannedMemory; text: string }[]): ScannedMemory {
  // Plain concatenation: the listing's paths are already normalised (no `.`, `..` or `//`).
  const head = readHeadSync(`${memoryDir}${path.sep}${relativePath}`, FRONTMATTER_MAX_LINES, true);
  const header = readHeaderWithoutYaml(head.text);
  const memory: ScannedMemory = { path: relativePath, name: null, description: null, type: null, mtime: head.mtime, size: head.size, frontmatter: "ok" };
  if (header) setHeader(memory, header);
  else forYaml.push({ memory, text: head.text });
  return memory;
}

function setHeader(memory: ScannedMemory, header: MemoryHeader): void {
  memory.name = detachFromHead(header.name);
  memory.description = detachFromHead(header.description);
  memory.type = header.type;
  memory.frontmatter = header.status;
}

/**
 * The name and description are slices of the file's first 30 lines, and V8 keeps a slice's
 * whole parent string alive: 10,000 kept memories held 10,000 heads, and copying them through
 * the young generation was a tenth of a scan. Concatenating then slicing makes V8 copy just
 * the value.
 */
function detachFromHead(value: string | null): string | null {
  return value === null ? null : ` ${value}`.slice(1);
}
