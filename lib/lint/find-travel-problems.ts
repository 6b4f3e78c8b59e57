import path from "node:path";
import type { LintFinding, LintSeverity } from "../memdir/lint-finding";
import { listMarkdownFiles } from "../memdir/list-markdown-files";
import { readRegularFile } from "../memdir/read-regular-file";
import { findStoreNameProblem } from "../review/find-store-name-problem";
import { MAX_CONTENT_BYTES } from "../review/validate-proposal-input";
import { findCredentialInName } from "../secrets/find-credential-in-name";
import { CLAUDE_SYNC_MAX_BYTES, findContentFormProblem } from "../sync/scan-team-dir";

const READ_CONCURRENCY = 16;
const TEAM_PREFIX = "team/";

/**
 * C12, T3: what `teammem sync` (for a file in team/) and `teammem propose` (for any other) would
 * refuse, found by their own checks before either runs: a name the store refuses, a credential
 * in the name, a file over the size limits or not UTF-8 text. In team/ each is an error (sync
 * leaves the file out); elsewhere a warning (the memory works, it just cannot be proposed). A
 * secret in the text is left to the `secret` rule, which says where it is.
 */
export async function findTravelProblems(memoryDir: string): Promise<LintFinding[]> {
  const { files } = await listMarkdownFiles(memoryDir);
  const findings: LintFinding[] = [];
  const queue = [...files];
  const workers = Array.from({ length: Math.min(READ_CONCURRENCY, queue.length) }, async () => {
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      findings.push(...findNameProblems(file), ...(await findContentProblems(memoryDir, file)));
    }
  });
  await Promise.all(workers);
  return findings;
}

/** The name the file would have in the store: sync sends team/ files relative to team/. */
function storePathOf(file: string): string {
  return file.startsWith(TEAM_PREFIX) ? file.slice(TEAM_PREFIX.length) : file;
}

function severityOf(file: string): LintSeverity {
  return file.startsWith(TEAM_PREFIX) ? "error" : "warning";
}

function refusal(file: string): string {
  return file.startsWith(TEAM_PREFIX) ? "teammem sync leaves this file out of the team store" : "teammem propose refuses this file";
}

function findNameProblems(file: string): LintFinding[] {
  const storePath = storePathOf(file);
  const findings: LintFinding[] = [];
  const nameProblem = findStoreNameProblem(storePath);
  if (nameProblem) {
    findings.push({ file, rule: "invalid-name", severity: severityOf(file), message: `${refusal(file)}: ${nameProblem}.`, fix: "Rename the file to plain, visible characters (see the rule's reason), at most three folders deep." });
  }
  const credential = findCredentialInName(storePath);
  if (credential) {
    findings.push({ file, rule: "secret", severity: "error", message: `The file name ${credential}: a name is shown to every reviewer and written on every member's disk, so it must not hold one.`, fix: "Rename the file after its topic, then rotate the credential." });
  }
  return findings;
}

async function findContentProblems(memoryDir: string, file: string): Promise<LintFinding[]> {
  let bytes: Buffer;
  try {
    // One byte over the limit is enough to know the file is too large.
    ({ bytes } = await readRegularFile(path.join(memoryDir, file), CLAUDE_SYNC_MAX_BYTES + 1));
  } catch {
    return []; // unreadable since the listing: lintMemoryDir reports it
  }
  // Secrets are the `secret` rule's, which scans the text once and says where they are.
  const problem = findContentFormProblem(bytes);
  if (!problem) return [];
  const rule = bytes.length > MAX_CONTENT_BYTES ? "too-large" : "not-utf8";
  const fix = rule === "too-large" ? "Split it into smaller memories, keeping in each only what the code cannot tell." : "Save the file as UTF-8 text (no NUL bytes, no other encoding).";
  return [{ file, rule, severity: severityOf(file), message: `${refusal(file)}: it is ${problem}.`, fix }];
}
