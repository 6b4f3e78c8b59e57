import path from "node:path";
import type { LintFinding } from "../memdir/lint-finding";
import { listMarkdownFiles } from "../memdir/list-markdown-files";
import { readRegularFile } from "../memdir/read-regular-file";
import { findCredentialInName } from "./find-credential-in-name";
import { scanSecrets } from "./scan-secrets";

/** A memory bigger than this is not read whole for secrets; its head is, and that is said. */
const MAX_SCAN_BYTES = 1024 * 1024;

/**
 * T3: one `secret` lint error per credential found in any memory file of the directory
 * (frontmatter included, MEMORY.md included). The message carries the kind, position and a
 * redacted preview; never the value.
 */
export async function lintMemorySecrets(memoryDir: string): Promise<LintFinding[]> {
  const { files } = await listMarkdownFiles(memoryDir);
  const candidates = [...files, "MEMORY.md", "team/MEMORY.md"];
  const findings: LintFinding[] = [];
  for (const file of candidates) {
    const text = await readUpTo(path.join(memoryDir, file), MAX_SCAN_BYTES);
    if (text === null) continue;
    // The name is masked wherever lint shows it, so a command naming the file cannot be typed as
    // shown: then the fix says to rename the file first.
    const command = findCredentialInName(file) ? "rename the file after its topic, then run `teammem secrets NEW_NAME --redact --write`" : `run \`teammem secrets ${file} --redact --write\``;
    for (const secret of scanSecrets(text)) {
      findings.push({
        file,
        rule: "secret",
        severity: "error",
        line: secret.line,
        message: `${secret.kind} (${secret.preview}) at column ${secret.column}: every member's agent reads memories, so a credential must not be in one.`,
        fix: `Say where the credential lives instead (e.g. the vault path), or ${command} to replace it in place (a backup is kept); then rotate the credential.`,
      });
    }
  }
  return findings;
}

async function readUpTo(filePath: string, maxBytes: number): Promise<string | null> {
  // Only a regular file: a link is not followed and a named pipe never opened (it blocked lint).
  const read = await readRegularFile(filePath, maxBytes).catch(() => null);
  return read === null ? null : read.bytes.toString("utf8"); // missing or unreadable: lintMemoryDir reports those
}
