import path from "node:path";
import { formatIndexLine, type IndexEntry } from "../memdir/build-index";
import { parseMemoryHeader } from "../memdir/frontmatter";
import { MAX_INDEX_LINE_CHARS } from "../memdir/truncate-index";
import { isSafeMemoryKey } from "../memdir/validate-memory-key";
import { findCredentialInName } from "../secrets/find-credential-in-name";

export type ProjectIndexFile = {
  /** Relative to the project folder, `/` separators. */
  path: string;
  text: string;
  /** When the file was last written; the file being committed now counts as newest. */
  updatedAt: Date | null;
};

export const PROJECT_INDEX_FILE = "MEMORY.md";

/**
 * True for a project file that is a memory (C5: any *.md at any depth except MEMORY.md) that
 * teammem may show. A file whose name holds a credential (pushed from outside teammem, which
 * refuses such names) is not one: every page, answer, index, recall and sync would print its
 * name, so teammem leaves it out everywhere and says so in the log (docs/store.md, "Files
 * teammem leaves alone"); it is removed with git.
 */
export function isMemoryFile(filePath: string): boolean {
  // Control characters (a line break) would also break git's line-based batch commands.
  return filePath.endsWith(".md") && !/(^|\/)MEMORY\.md$/.test(filePath) && !hasControlCharacter(filePath) && isSafeMemoryKey(filePath) && !hasCredentialInName(filePath);
}

// Paths seen before: the credential rules cost ~5 µs a path, and a project's 10,000 paths are
// asked about again at every approval. Bounded: forgotten all at once past the limit.
const credentialVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED_VERDICTS = 200_000;

/** The path holds what looks like a credential (find-credential-in-name.ts's rules). */
export function hasCredentialInName(filePath: string): boolean {
  let verdict = credentialVerdicts.get(filePath);
  if (verdict === undefined) {
    if (credentialVerdicts.size >= MAX_REMEMBERED_VERDICTS) credentialVerdicts.clear();
    verdict = findCredentialInName(filePath) !== null;
    credentialVerdicts.set(filePath, verdict);
  }
  return verdict;
}

/**
 * A project's MEMORY.md as the store keeps it: one `- [name](file) — description` line per
 * memory, newest first (as Claude Code's own index grows at the top), then by path so the same
 * files always give the same bytes. A memory without a name is listed under its file name.
 * The demo store is seeded through this too, so a first approval changes only its own line.
 */
export function regenerateProjectIndex(files: ProjectIndexFile[]): string {
  return regenerateProjectIndexFromHeaders(
    files.map((file) => {
      const header = parseMemoryHeader(file.text);
      return { path: file.path, name: header.name, description: header.description, updatedAt: file.updatedAt };
    }),
  );
}

/** A memory's index-relevant fields, as the read model keeps them. */
export type ProjectIndexHeader = { path: string; name: string | null; description: string | null; updatedAt: Date | null };

/** regenerateProjectIndex from headers already parsed (the read model's rows): same bytes. */
export function regenerateProjectIndexFromHeaders(headers: ProjectIndexHeader[]): string {
  const lines = headers.filter((header) => indexLineOf(header) !== null).sort(compareIndexOrder).map((header) => indexLineOf(header)!);
  return lines.join("\n") + (lines.length ? "\n" : "");
}

/** Newest first (as Claude Code's own index grows at the top), then by path. */
export function compareIndexOrder(a: ProjectIndexHeader, b: ProjectIndexHeader): number {
  return (b.updatedAt?.getTime() ?? 0) - (a.updatedAt?.getTime() ?? 0) || byPath(a, b);
}

// Headers are not changed once made: each one's line is formatted once.
const lines = new WeakMap<ProjectIndexHeader, string | null>();

/** The header's index line, or null when its path is not a memory file. */
export function indexLineOf(header: ProjectIndexHeader): string | null {
  let line = lines.get(header);
  if (line === undefined) {
    line = isMemoryFile(header.path) ? formatIndexLine(indexEntry(header.path, header.name ?? path.posix.basename(header.path, ".md"), header.description)) : null;
    lines.set(header, line);
  }
  return line;
}

/** One index entry; a long description is cut at a word so the line stays within C7's ~150. */
export function indexEntry(file: string, title: string, description: string | null): IndexEntry {
  const room = MAX_INDEX_LINE_CHARS - formatIndexLine({ file, title, hook: null }).length - " — ".length;
  const hook = description?.replace(/[\r\n]+/g, " ").trim() || null;
  if (hook === null || hook.length <= room) return { file, title, hook };
  const cut = hook.slice(0, Math.max(0, room - 1));
  const lastSpace = cut.lastIndexOf(" ");
  return { file, title, hook: `${lastSpace > 0 ? cut.slice(0, lastSpace) : cut}…` };
}

function byPath(a: { path: string }, b: { path: string }): number {
  if (a.path === b.path) return 0;
  return a.path < b.path ? -1 : 1; // code-unit order: the same on every machine and locale
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => char.charCodeAt(0) < 0x20);
}
