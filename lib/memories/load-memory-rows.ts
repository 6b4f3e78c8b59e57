import { memoryAge, memoryAgeDays, needsFreshnessWarning } from "../memdir/age";
import type { LintFinding } from "../memdir/lint-finding";
import { lintMemoryDir } from "../memdir/lint-memory-dir";
import { scanMemoryDir } from "../memdir/scan-memory-dir";
import type { MemoryRow } from "./memory-row";

export type LoadedMemoryRows = {
  rows: MemoryRow[];
  /** Findings about files that are not rows: unreadable files, links out, the indexes. */
  otherFindings: LintFinding[];
};

/** Every memory of a directory (S1, all of them, not only the 200 recall sees) with its findings. */
export async function loadMemoryRows(memoryDir: string, now: Date = new Date()): Promise<LoadedMemoryRows> {
  const [scan, lint] = await Promise.all([scanMemoryDir(memoryDir, { all: true }), lintMemoryDir(memoryDir)]);
  const findingsByFile = new Map<string, LintFinding[]>();
  for (const finding of lint.findings) findingsByFile.set(finding.file, [...(findingsByFile.get(finding.file) ?? []), finding]);
  const rows = scan.memories.map((memory) => ({
    path: memory.path,
    name: memory.name,
    description: memory.description,
    type: memory.type,
    mtime: memory.mtime,
    ageDays: memoryAgeDays(memory.mtime, now),
    ageText: memoryAge(memory.mtime, now),
    hasFreshnessWarning: needsFreshnessWarning(memory.mtime, now),
    findings: findingsByFile.get(memory.path) ?? [],
  }));
  const listed = new Set(rows.map((row) => row.path));
  return { rows, otherFindings: lint.findings.filter((finding) => !listed.has(finding.file)) };
}
