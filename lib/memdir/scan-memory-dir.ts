import { readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { FRONTMATTER_MAX_LINES, parseMemoryHeader, type MemoryType } from "./frontmatter";
import { readHead } from "./read-head";

/** S4: only the newest 200 memories take part in recall. */
export const MAX_MEMORY_FILES = 200;

export type ScannedMemory = {
  /** Relative to the scanned directory, with `/` separators (C5). */
  path: string;
  name: string | null;
  description: string | null;
  type: MemoryType | null;
  mtime: Date;
  size: number;
};

export type SkippedFile = { path: string; reason: string };

export type ScanResult = { memories: ScannedMemory[]; skipped: SkippedFile[] };

/**
 * S1-S4, C5: every `*.md` except MEMORY.md at any depth, first 30 lines and mtime read in one
 * parallel pass, newest first. A file that cannot be read is reported as skipped, never thrown
 * (S3); a symlink is reported and not followed (it could lead out of the directory).
 */
export async function scanMemoryDir(memoryDir: string): Promise<ScanResult> {
  const skipped: SkippedFile[] = [];
  const candidates = await listMarkdownFiles(memoryDir, "", skipped);
  const settled = await Promise.allSettled(
    candidates.map(async (relativePath) => {
      const head = await readHead(path.join(memoryDir, relativePath), FRONTMATTER_MAX_LINES);
      const header = parseMemoryHeader(head.text);
      return { path: relativePath, name: header.name, description: header.description, type: header.type, mtime: head.mtime, size: head.size };
    }),
  );
  const memories: ScannedMemory[] = [];
  settled.forEach((result, index) => {
    if (result.status === "fulfilled") memories.push(result.value);
    else skipped.push({ path: candidates[index]!, reason: describeReadError(result.reason) });
  });
  memories.sort((a, b) => b.mtime.getTime() - a.mtime.getTime());
  return { memories, skipped };
}

async function listMarkdownFiles(root: string, relativeDir: string, skipped: SkippedFile[]): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(root, relativeDir), { withFileTypes: true });
  } catch (error) {
    if (relativeDir === "" && (error as NodeJS.ErrnoException).code === "ENOENT") return [];
    skipped.push({ path: relativeDir || ".", reason: describeReadError(error) });
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const relativePath = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) {
      if (entry.name.endsWith(".md")) skipped.push({ path: relativePath, reason: await describeSymlink(root, relativePath) });
    } else if (entry.isDirectory()) {
      files.push(...(await listMarkdownFiles(root, relativePath, skipped)));
    } else if (entry.isFile() && entry.name.endsWith(".md") && entry.name !== "MEMORY.md") {
      files.push(relativePath);
    }
  }
  return files;
}

async function describeSymlink(root: string, relativePath: string): Promise<string> {
  try {
    const target = await realpath(path.join(root, relativePath));
    const rootReal = await realpath(root);
    return target.startsWith(rootReal + path.sep)
      ? "symbolic link (not followed)"
      : "symbolic link leading outside the memory directory (not followed)";
  } catch {
    return "broken symbolic link (not followed)";
  }
}

function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return "could not be read";
}
