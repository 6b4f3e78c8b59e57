import type { LintFinding } from "../memdir/lint-finding";
import { lintMemoryDir, type LintReport } from "../memdir/lint-memory-dir";
import { lintMemorySecrets } from "../secrets/lint-memory-secrets";
import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { findTravelProblems } from "./find-travel-problems";

/**
 * `teammem lint DIR`: the format's findings (F1-F6, S3, I1-I4), credentials in the text (T3), and
 * what sync and propose would refuse (C12), in one list ordered by file and line. A credential
 * in a file name (`reference_ghp_….md`) or quoted in a message is masked wherever the finding
 * shows it, so lint never prints one, not even in --json.
 */
export async function lintMemoryDirectory(memoryDir: string): Promise<LintReport> {
  const [format, secrets, travel] = await Promise.all([lintMemoryDir(memoryDir), lintMemorySecrets(memoryDir), findTravelProblems(memoryDir)]);
  // Most findings share their fix and many their file: each text is scanned once.
  const maskedTexts = new Map<string, string>();
  const mask = (text: string): string => {
    let masked = maskedTexts.get(text);
    if (masked === undefined) maskedTexts.set(text, (masked = maskSecretsInQuotedNames(text)));
    return masked;
  };
  const findings = [...format.findings, ...secrets, ...travel].map((finding) => maskFinding(finding, mask));
  findings.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.rule.localeCompare(b.rule));
  return { findings, hasErrors: findings.some((finding) => finding.severity === "error") };
}

function maskFinding(finding: LintFinding, mask: (text: string) => string): LintFinding {
  const masked = { ...finding, file: mask(finding.file), message: mask(finding.message) };
  if (finding.fix !== undefined) masked.fix = mask(finding.fix);
  return masked;
}
