import { access } from "node:fs/promises";
import path from "node:path";
import { checkIndex, INDEX_FILE } from "./check-index";
import type { LintFinding } from "./lint-finding";
import { NAME_NOT_UTF8 } from "./list-markdown-files";
import { readHead } from "./read-head";
import { NotRegularFileError } from "./read-regular-file";
import { scanMemoryDir } from "./scan-memory-dir";
import { validateMemory } from "./validate-memory";

/** Lint reads at most this many lines per memory; a memory longer than that is not a memory. */
const LINT_MAX_LINES = 2_000;
const LINT_CONCURRENCY = 32;

/**
 * T4: a KAIROS daily log, where assistant mode appends notes instead of writing topic memories
 * (the files `teammem dream` reads). It has no frontmatter and no index line by design, so the
 * checks of one memory file do not apply; secrets, readability and what sync or propose refuse
 * still do (their own rules, which every file gets).
 */
const DAILY_LOG = /^logs\/\d{4}\/\d{2}\/\d{4}-\d{2}-\d{2}\.md$/;

export type LintReport = { findings: LintFinding[]; hasErrors: boolean };

const SKIPPED_FIX: Record<"unreadable" | "symlink-escape", string> = {
  unreadable: "Make it a regular file you can read (for a broken link: restore its target or remove the link; a named pipe or device is never read), then lint again.",
  "symlink-escape": "Move the memory into the memory directory instead of linking to it, or remove the link.",
};

const RENAME_TO_UTF8_FIX = "Rename it to a UTF-8 name (a shell wildcard reaches the old one, e.g. `mv caf*.md cafe.md`), then lint again.";

/**
 * Every finding for one memory directory: each memory other than a daily log (F1-F6, T4), files
 * that could not be read or that link outside (S3, C12), and the index of the directory and of
 * any subfolder with its own MEMORY.md, such as `team/` (I1-I4, T1).
 */
export async function lintMemoryDir(memoryDir: string): Promise<LintReport> {
  const scan = await scanMemoryDir(memoryDir, { all: true });
  const findings: LintFinding[] = [];
  for (const skipped of scan.skipped) {
    if (skipped.reason === "symlink") continue; // its target is linted under its own name
    findings.push({ file: skipped.path, rule: skipped.reason, severity: "error", message: `Not read: ${skipped.message}.`, fix: fixForSkipped(skipped.reason, skipped.message) });
  }
  const queue = scan.memories.filter((memory) => !DAILY_LOG.test(memory.path));
  const workers = Array.from({ length: Math.min(LINT_CONCURRENCY, queue.length) }, async () => {
    for (let memory = queue.pop(); memory; memory = queue.pop()) {
      const file = memory.path;
      try {
        const head = await readHead(path.join(memoryDir, file), LINT_MAX_LINES);
        findings.push(...validateMemory({ file, text: head.text, mtime: head.mtime }));
      } catch (error) {
        const message = error instanceof NotRegularFileError ? `Not read: ${error.message}.` : "The file disappeared or became unreadable during lint.";
        findings.push({ file, rule: "unreadable", severity: "error", message, fix: SKIPPED_FIX.unreadable });
      }
    }
  });
  await Promise.all(workers);
  for (const folder of await foldersWithIndex(memoryDir, scan.memories.map((memory) => memory.path))) {
    const report = await checkIndex(path.join(memoryDir, folder));
    findings.push(...report.findings.map((finding) => fromMemoryDir(finding, folder)));
  }
  findings.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.rule.localeCompare(b.rule));
  return { findings, hasErrors: findings.some((finding) => finding.severity === "error") };
}

function fixForSkipped(reason: keyof typeof SKIPPED_FIX, message: string): string {
  return message.startsWith(NAME_NOT_UTF8) ? RENAME_TO_UTF8_FIX : SKIPPED_FIX[reason];
}

// An index named in a message: `MEMORY.md` at the start or after a space or parenthesis.
const INDEX_MENTION = /(^|[\s(`])MEMORY\.md\b/g;

/**
 * checkIndex words a finding for the folder it checked, as if that folder were DIR. For a
 * subfolder with its own index (team/, T1) the file, the index and the repair command are named
 * from the memory directory instead: `teammem index DIR --fix` leaves team/MEMORY.md alone.
 */
function fromMemoryDir(finding: LintFinding, folder: string): LintFinding {
  if (folder === "") return finding;
  const prefix = `${folder}/`;
  const reword = (text: string): string =>
    text.replace(INDEX_MENTION, `$1${prefix}${INDEX_FILE}`).replaceAll("`teammem index DIR ", `\`teammem index DIR/${folder} `);
  // An orphan's message starts with its path, which is relative to the folder.
  const message = finding.message.startsWith(`${finding.file} `) ? prefix + finding.message : finding.message;
  const reworded: LintFinding = { ...finding, file: prefix + finding.file, message: reword(message) };
  if (finding.fix !== undefined) reworded.fix = reword(finding.fix);
  return reworded;
}

/**
 * The root always has an index (even a missing one: then every memory is an orphan). team/ is
 * looked at even with no memory in it (T1): its index alone can still link to missing files.
 */
async function foldersWithIndex(memoryDir: string, memoryPaths: string[]): Promise<string[]> {
  const folders = new Set(["team", ...memoryPaths.flatMap((memoryPath) => ancestors(memoryPath))]);
  const checks = await Promise.all(
    [...folders].map(async (folder) =>
      access(path.join(memoryDir, folder, INDEX_FILE)).then(
        () => folder,
        () => null,
      ),
    ),
  );
  return ["", ...checks.filter((folder): folder is string => folder !== null).sort()];
}

function ancestors(memoryPath: string): string[] {
  const parts = memoryPath.split("/").slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}
