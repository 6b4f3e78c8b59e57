import { access } from "node:fs/promises";
import path from "node:path";
import type { LintFinding } from "./lint-finding";
import { describeError } from "./list-markdown-files";
import { parseIndex, type IndexLink } from "./parse-index";
import { NotRegularFileError, readRegularFile } from "./read-regular-file";
import { scanMemoryDir, type ScannedMemory } from "./scan-memory-dir";
import { MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, MAX_INDEX_LINE_CHARS, truncateIndex, type IndexTruncation } from "./truncate-index";
import { normaliseText } from "./frontmatter";

export const INDEX_FILE = "MEMORY.md";

export type IndexReport = IndexTruncation & {
  /** The raw MEMORY.md text ("" when there is none, or it was not read). */
  text: string;
  /**
   * Why MEMORY.md was not read although something has that name: "not a regular file (a named
   * pipe)", "… (a symbolic link, not followed)". Null when it was read or is missing.
   */
  unreadableReason: string | null;
  links: IndexLink[];
  /** I4: links whose file does not exist. */
  dangling: IndexLink[];
  /** I4: memories in this directory that no link points at. */
  orphans: ScannedMemory[];
  /** C7: 1-based line numbers of lines over ~150 characters. */
  longLines: number[];
  /** I3: links that exist in the file but are cut off from what the model sees. */
  entriesOutsideWindow: IndexLink[];
  findings: LintFinding[];
};

/** I1-I4, C7: everything wrong with one directory's MEMORY.md, and what Claude Code loads of it. */
export async function checkIndex(memoryDir: string): Promise<IndexReport> {
  const { text, unreadableReason } = await readIndexText(memoryDir);
  const truncation = truncateIndex(text);
  const links = parseIndex(text);
  const loadedLinkCount = parseIndex(truncation.loaded).length;
  const scan = await scanMemoryDir(memoryDir, { all: true });
  const linked = new Set(links.map((link) => link.file));
  const existing = new Set(scan.memories.map((memory) => memory.path));
  const dangling = await findDangling(memoryDir, links, existing);
  // An index that could not be read lists nothing; calling every memory an orphan would mislead.
  const orphans = unreadableReason ? [] : await findOrphans(memoryDir, scan.memories, linked);
  const longLines = normaliseText(text)
    .split("\n")
    .flatMap((line, index) => (line.length > MAX_INDEX_LINE_CHARS ? [index + 1] : []));
  const report = { ...truncation, text, unreadableReason, links, dangling, orphans, longLines, entriesOutsideWindow: links.slice(loadedLinkCount) };
  return { ...report, findings: describeFindings(report) };
}

/**
 * checkIndex for an index whose memories are already known (the team store's read model): the
 * same report from the text and the list, without reading a directory. Memories under a folder
 * in `indexedFolders` are indexed there (T1), and `logs/` is never indexed (T4).
 */
export function checkIndexOfKnownMemories(text: string, memories: ScannedMemory[], indexedFolders: ReadonlySet<string> = new Set()): IndexReport {
  const truncation = truncateIndex(text);
  const links = parseIndex(text);
  const loadedLinkCount = parseIndex(truncation.loaded).length;
  const linked = new Set(links.map((link) => link.file));
  const existing = new Set(memories.map((memory) => memory.path));
  const isIndexedElsewhere = (file: string) => file.startsWith("logs/") || file.split("/").slice(0, -1).some((_, depth, folders) => indexedFolders.has(folders.slice(0, depth + 1).join("/")));
  const orphans = memories.filter((memory) => !linked.has(memory.path) && !isIndexedElsewhere(memory.path)).sort((a, b) => a.path.localeCompare(b.path));
  const longLines = normaliseText(text)
    .split("\n")
    .flatMap((line, index) => (line.length > MAX_INDEX_LINE_CHARS ? [index + 1] : []));
  const report = { ...truncation, text, unreadableReason: null, links, dangling: links.filter((link) => !existing.has(link.file)), orphans, longLines, entriesOutsideWindow: links.slice(loadedLinkCount) };
  return { ...report, findings: describeFindings(report) };
}

async function findDangling(memoryDir: string, links: IndexLink[], existing: Set<string>): Promise<IndexLink[]> {
  const checks = await Promise.all(
    links.map(async (link) => existing.has(link.file) || (await exists(path.join(memoryDir, link.file)))),
  );
  return links.filter((_, index) => !checks[index]);
}

/**
 * T1, T4: a subfolder with its own MEMORY.md (the team directory) is indexed there, and KAIROS
 * `logs/` are never indexed, so neither counts as an orphan of this index.
 */
async function findOrphans(memoryDir: string, memories: ScannedMemory[], linked: Set<string>): Promise<ScannedMemory[]> {
  const ownIndex = new Map<string, Promise<boolean>>();
  const hasOwnIndex = (folder: string): Promise<boolean> => {
    if (!ownIndex.has(folder)) ownIndex.set(folder, exists(path.join(memoryDir, folder, INDEX_FILE)));
    return ownIndex.get(folder)!;
  };
  const results = await Promise.all(
    memories.map(async (memory) => {
      if (linked.has(memory.path) || memory.path.startsWith("logs/")) return false;
      const folders = memory.path.split("/").slice(0, -1);
      for (let depth = 1; depth <= folders.length; depth++) {
        if (await hasOwnIndex(folders.slice(0, depth).join("/"))) return false;
      }
      return true;
    }),
  );
  return memories.filter((_, index) => results[index]).sort((a, b) => a.path.localeCompare(b.path));
}

function describeFindings(report: Omit<IndexReport, "findings">): LintFinding[] {
  const findings: LintFinding[] = [];
  if (report.unreadableReason) {
    findings.push({ file: "MEMORY.md", rule: "unreadable", severity: "error", message: `Not read: ${report.unreadableReason}.`, fix: "Make MEMORY.md a regular file (teammem never opens links, named pipes or devices), then check again." });
  }
  for (const link of report.dangling) {
    findings.push({ file: "MEMORY.md", line: link.line, rule: "index-dangling", severity: "error", message: `Line ${link.line} links to ${link.file}, which does not exist, so agents are offered a memory they cannot open.`, fix: "Remove the line (`teammem index DIR --fix` does), or restore the file." });
  }
  for (const memory of report.orphans) {
    findings.push({ file: memory.path, rule: "index-orphan", severity: "warning", message: `${memory.path} is not listed in MEMORY.md, so an agent reading the index does not know it exists (only recall can still find it).`, fix: "Add a one-line entry for it to MEMORY.md (`teammem index DIR --fix` adds one)." });
  }
  for (const line of report.longLines) {
    findings.push({ file: "MEMORY.md", line, rule: "index-long-line", severity: "warning", message: `Line ${line} is longer than ${MAX_INDEX_LINE_CHARS} characters; every index line is loaded into every session, so each should be one short entry.`, fix: "Shorten the hook and move the detail into the memory file." });
  }
  if (report.warning) {
    const hidden = report.entriesOutsideWindow.length;
    findings.push({ file: "MEMORY.md", rule: "index-truncated", severity: "warning", message: `MEMORY.md is over Claude Code's loading limit (${MAX_ENTRYPOINT_LINES} lines, ${MAX_ENTRYPOINT_BYTES.toLocaleString("en-US")} characters); ${hidden} ${hidden === 1 ? "entry is" : "entries are"} never seen by the model.`, fix: "Shorten entries to one line each and remove stale ones." });
  }
  return findings;
}

async function exists(filePath: string): Promise<boolean> {
  return access(filePath).then(
    () => true,
    () => false,
  );
}

/**
 * Only a regular MEMORY.md is read. A symlink is not followed (it could lead anywhere, e.g.
 * ~/.ssh) and a named pipe is never opened (reading one waits for a writer, forever): either is
 * reported instead of read. A missing index is simply empty (every memory is then an orphan).
 */
async function readIndexText(memoryDir: string): Promise<{ text: string; unreadableReason: string | null }> {
  try {
    const { bytes } = await readRegularFile(path.join(memoryDir, INDEX_FILE));
    return { text: bytes.toString("utf8"), unreadableReason: null };
  } catch (error) {
    if (error instanceof NotRegularFileError) return { text: "", unreadableReason: error.message };
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return { text: "", unreadableReason: code === "ENOENT" || code === "ENOTDIR" ? null : describeError(error) };
  }
}
