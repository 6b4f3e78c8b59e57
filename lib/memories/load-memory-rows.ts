import { memoryAge, memoryAgeDays, needsFreshnessWarning } from "../memdir/age";
import type { LintFinding } from "../memdir/lint-finding";
import { lintMemoryDir } from "../memdir/lint-memory-dir";
import { scanMemoryDir } from "../memdir/scan-memory-dir";
import { maskOptionalText, maskSecretsForDisplay, maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import type { MemoryRow } from "./memory-row";

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
  const [scan, lint] = await Promise.all([scanMemoryDir(memoryDir, { all: true }), lintMemoryDir(memoryDir)]);
  const findingsByFile = new Map<string, LintFinding[]>();
  for (const finding of lint.findings) findingsByFile.set(finding.file, [...(findingsByFile.get(finding.file) ?? []), maskFinding(finding)]);
  const rows = scan.memories.map((memory) => ({
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
  // These are listed by file name only (no link to follow): a token in the name is masked too.
  const otherFindings = lint.findings.filter((finding) => !listed.has(finding.file)).map((finding) => ({ ...maskFinding(finding), file: maskSecretsInQuotedNames(finding.file) }));
  return { rows, otherFindings };
}

// As the read model stores a team memory's findings (describe-memory-file.ts): a message may quote the name or a line.
function maskFinding(finding: LintFinding): LintFinding {
  return { ...finding, message: maskSecretsForDisplay(finding.message), ...(finding.fix === undefined ? {} : { fix: maskSecretsForDisplay(finding.fix) }) };
}
