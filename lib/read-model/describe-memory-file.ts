import { parseFrontmatter, parseHeaderOfFirstLines } from "../memdir/frontmatter";
import { validateMemory } from "../memdir/validate-memory";
import { maskOptionalText, maskSecretsForDisplay, maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { scanSecrets } from "../secrets/scan-secrets";
import type { FileChange } from "../store/git";

/** What the read model keeps of one memory file (a StoreMemory row). */
export type StoreMemoryRow = {
  projectId: string;
  path: string;
  blob: string;
  type: string | null;
  name: string | null;
  description: string | null;
  bodyBytes: number;
  changedAt: Date;
  changedBy: string;
  changedCommit: string;
  findings: string;
  findingRules: string;
  findingCount: number;
  hasErrors: boolean;
  hasSecret: boolean;
};

export type DescribeMemoryFileOptions = { projectId: string; path: string; blob: string; text: string; change: FileChange };

/**
 * One memory file as pages list it: the header an agent sees (C4: the first 30 lines only),
 * the lint findings and the secret verdict, computed once per file version instead of on every
 * request. Everything a page shows is masked: no secret value enters the database.
 */
export function describeMemoryFile({ projectId, path, blob, text, change }: DescribeMemoryFileOptions): StoreMemoryRow {
  const header = parseHeaderOfFirstLines(text);
  const findings = validateMemory({ file: path, text, mtime: change.at }).map((finding) => ({
    ...finding,
    message: maskSecretsForDisplay(finding.message),
    ...(finding.fix === undefined ? {} : { fix: maskSecretsForDisplay(finding.fix) }),
  }));
  const rules = [...new Set(findings.map((finding) => finding.rule))];
  return {
    projectId,
    path,
    blob,
    type: header.type,
    name: maskOptionalText(header.name),
    description: maskOptionalText(header.description),
    bodyBytes: Buffer.byteLength(parseFrontmatter(text).body, "utf8"),
    changedAt: change.at,
    changedBy: maskSecretsInQuotedNames(change.author), // an author pushed from outside may be anything
    changedCommit: change.commit,
    findings: JSON.stringify(findings),
    findingRules: rules.length ? `|${rules.join("|")}|` : "",
    findingCount: findings.length,
    hasErrors: findings.some((finding) => finding.severity === "error"),
    hasSecret: scanSecrets(text).length > 0,
  };
}
