import path from "node:path";
import { buildIndex } from "../memdir/build-index";
import { parseMemoryHeader } from "../memdir/frontmatter";
import { isSafeMemoryKey } from "../memdir/validate-memory-key";

export type ProjectIndexFile = {
  /** Relative to the project folder, `/` separators. */
  path: string;
  text: string;
  /** When the file was last written; the file being committed now counts as newest. */
  updatedAt: Date | null;
};

export const PROJECT_INDEX_FILE = "MEMORY.md";

/** True for a project file that is a memory (C5: any *.md at any depth except MEMORY.md). */
export function isMemoryFile(filePath: string): boolean {
  // Control characters (a line break) would also break git's line-based batch commands.
  return filePath.endsWith(".md") && !/(^|\/)MEMORY\.md$/.test(filePath) && !hasControlCharacter(filePath) && isSafeMemoryKey(filePath);
}

/**
 * A project's MEMORY.md as the store keeps it: one `- [name](file) — description` line per
 * memory, newest first (as Claude Code's own index grows at the top), then by path so the same
 * files always give the same bytes. A memory without a name is listed under its file name.
 */
export function regenerateProjectIndex(files: ProjectIndexFile[]): string {
  const memories = files
    .filter((file) => isMemoryFile(file.path))
    .sort((a, b) => (b.updatedAt?.getTime() ?? 0) - (a.updatedAt?.getTime() ?? 0) || byPath(a, b));
  return buildIndex(
    memories.map((file) => {
      const header = parseMemoryHeader(file.text);
      return { file: file.path, title: header.name ?? path.posix.basename(file.path, ".md"), hook: header.description };
    }),
  );
}

function byPath(a: ProjectIndexFile, b: ProjectIndexFile): number {
  if (a.path === b.path) return 0;
  return a.path < b.path ? -1 : 1; // code-unit order: the same on every machine and locale
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => char.charCodeAt(0) < 0x20);
}
