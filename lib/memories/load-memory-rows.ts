import { memoryAge, memoryAgeDays, needsFreshnessWarning } from "../memdir/age";
import type { LintFinding } from "../memdir/lint-finding";
import { lintMemoryDirectory } from "../lint/lint-memory-directory";
import { scanMemoryDir } from "../memdir/scan-memory-dir";
import { maskOptionalText } from "../secrets/mask-secret-ranges";
import type { MemoryRow } from "./memory-row";
import { nameHoldsSecret } from "./name-holds-secret";

export type LoadedMemoryRows = {
  rows: MemoryRow[];
  /** Findings about files that are not rows: unreadable files, links out, the indexes. */
  otherFindings: LintFinding[];
};

/**
 * Every memory of a directory (S1, all of them, not only the 200 recall sees) with its findings,
 * masked as the memory's own page shows them: a private folder is read on every request, so no
 * read model has masked its names, descriptions or finding texts before.
 */
export async function loadMemoryRows(memoryDir: string, now: Date = new Date()): Promise<LoadedMemoryRows> {
  // teammem lint's findings (credentials in a text or a name included), masked as lint prints them.
  const [scan, lint] = await Promise.all([scanMemoryDir(memoryDir, { all: true }), lintMemoryDirectory(memoryDir)]);
  const findingsByFile = new Map<string, LintFinding[]>();
  for (const finding of lint.findings) findingsByFile.set(finding.file, [...(findingsByFile.get(finding.file) ?? []), finding]);
  // A file named after a credential is no row: its finding, under its masked name, says to rename it.
  const rows = scan.memories.filter((memory) => !nameHoldsSecret(memory.path)).map((memory) => ({
    path: memory.path,
    name: maskOptionalText(memory.name),
    description: maskOptionalText(memory.description),
    type: memory.type,
    mtime: memory.mtime,
    ageDays: memoryAgeDays(memory.mtime, now),
    ageText: memoryAge(memory.mtime, now),
    hasFreshnessWarning: needsFreshnessWarning(memory.mtime, now),
    findings: findingsByFile.get(memory.path) ?? [],
  }));
  const listed = new Set(rows.map((row) => row.path));
  // Listed by file name only (no link to follow), already masked.
  const otherFindings = lint.findings.filter((finding) => !listed.has(finding.file));
  return { rows, otherFindings };
}
