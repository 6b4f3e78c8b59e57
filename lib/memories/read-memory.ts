import { memoryAge, needsFreshnessWarning } from "../memdir/age";
import { formatMemoryHeader } from "../memdir/format-memory-header";
import { parseFrontmatter, parseHeaderOfFirstLines, type FrontmatterStatus, type MemoryType } from "../memdir/frontmatter";
import type { LintFinding } from "../memdir/lint-finding";
import { lintMemoryDirectory } from "../lint/lint-memory-directory";
import { findKeyProblem } from "../memdir/validate-memory-key";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { maskOptionalText, maskSecretsDeep, maskSecretsForDisplay, maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { nameHoldsSecret } from "./name-holds-secret";
import { withMemoryDir, type MemorySourceOptions } from "./memory-source";
import { assertProjectPermission } from "../auth/permissions";
import { parseJsonOrNull } from "../parse-json";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { readBlobs, type FileCommit } from "../store/git";
import { MAX_SHOWN_BYTES, readMemoryFile, type MemoryFileText } from "./read-memory-file";

/** The newest commits of a memory shown on its page. */
const HISTORY_SHOWN = 100;

export type ReadMemoryOptions = MemorySourceOptions & { memoryPath: string; now?: Date };

export type MemoryView = {
  path: string;
  /** The path as an agent is shown it. */
  displayPath: string;
  /** A3: the header an agent is given above this memory, exactly. */
  header: string;
  name: string | null;
  description: string | null;
  type: MemoryType | null;
  fields: Record<string, unknown>;
  frontmatterStatus: FrontmatterStatus;
  body: string;
  mtime: Date;
  ageText: string;
  hasFreshnessWarning: boolean;
  size: number;
  /** The file is longer than the dashboard shows. */
  isCut: boolean;
  findings: LintFinding[];
  /** The store's git log of the file; null for private memory, which has no history. */
  history: FileCommit[] | null;
};

/** One memory with everything the Memory page shows. Rejects hostile paths before any read. */
export async function readMemory(options: ReadMemoryOptions): Promise<MemoryView> {
  const { memoryPath, source, now = new Date() } = options;
  const problem = findKeyProblem(memoryPath);
  if (problem) throw new AppError("INVALID_INPUT", `That is not a memory path: ${problem}.`);
  if (!memoryPath.endsWith(".md") || /(^|\/)MEMORY\.md$/.test(memoryPath)) {
    throw new AppError("INVALID_INPUT", "A memory is a `.md` file other than MEMORY.md; MEMORY.md has its own index page.");
  }
  if (nameHoldsSecret(memoryPath)) throw new AppError("INVALID_INPUT", "That file's name holds what looks like a credential, so its page is not shown: rename the file.");
  const view = source.scope === "team" ? await readTeamMemory(options, source.projectId) : await withMemoryDir({ ...options, folder: source.folder }, async ({ memoryDir, displayDir }) => {
    const file = await readMemoryFile(memoryDir, memoryPath);
    const lint = await lintMemoryDirectory(memoryDir);
    return { file, displayPath: `${displayDir}/${memoryPath}`, findings: lint.findings.filter((finding) => finding.file === memoryPath) };
  });
  // C4: an agent's fields come from the first 30 lines only; show those, not a fuller reading.
  const header = parseHeaderOfFirstLines(view.file.text);
  const history = source.scope === "team" ? await readHistory(options.db, source.projectId, memoryPath) : null;
  return {
    path: memoryPath,
    displayPath: view.displayPath,
    header: formatMemoryHeader(view.displayPath, view.file.mtime, now),
    name: maskOptionalText(header.name),
    description: maskOptionalText(header.description),
    type: header.type,
    fields: maskSecretsDeep(header.fields) as Record<string, unknown>,
    frontmatterStatus: header.status,
    // Pages and API answers show a secret as its kind and preview, never the value.
    body: maskSecretsForDisplay(parseFrontmatter(view.file.text).body),
    mtime: view.file.mtime,
    ageText: memoryAge(view.file.mtime, now),
    hasFreshnessWarning: needsFreshnessWarning(view.file.mtime, now),
    size: view.file.size,
    isCut: view.file.isCut,
    findings: view.findings.map((finding) => ({ ...finding, message: maskSecretsInQuotedNames(finding.message) })),
    history,
  };
}

type LoadedMemory = { file: MemoryFileText; displayPath: string; findings: LintFinding[] };

// A team memory is one read-model row and one blob: no folder is written and nothing else is read.
async function readTeamMemory(options: ReadMemoryOptions, projectId: string): Promise<LoadedMemory> {
  const { config, db, caller, memoryPath } = options;
  await assertProjectPermission(db, caller, projectId, "read");
  await ensureReadModel(config, db);
  const row = await db.storeMemory.findUnique({ where: { projectId_path: { projectId, path: memoryPath } } });
  const text = row ? (await readBlobs(config.storeCloneDir, [row.blob])).get(row.blob) : undefined;
  if (!row || text === undefined) throw new AppError("NOT_FOUND", `There is no memory "${memoryPath.slice(0, 200)}" in this project.`);
  const size = Buffer.byteLength(text, "utf8");
  const isCut = size > MAX_SHOWN_BYTES;
  const file = { text: isCut ? Buffer.from(text, "utf8").subarray(0, MAX_SHOWN_BYTES).toString("utf8") : text, mtime: row.changedAt, size, isCut };
  const findings = parseJsonOrNull(row.findings);
  // A team memory reaches an agent from `<its memory dir>/team/` (T1): the header shows the part every machine shares.
  return { file, displayPath: `memory/team/${memoryPath}`, findings: Array.isArray(findings) ? (findings as LintFinding[]) : [] };
}

// The read model keeps each file's commits: one query, not a walk over every commit of the store.
async function readHistory(db: Db, projectId: string, memoryPath: string): Promise<FileCommit[]> {
  const rows = await db.storeMemoryChange.findMany({ where: { projectId, path: memoryPath }, orderBy: [{ at: "desc" }, { seq: "desc" }], take: HISTORY_SHOWN });
  return rows.map((row) => ({ commit: row.commit, authorName: row.authorName, authorEmail: row.authorEmail, date: row.at, subject: row.subject }));
}
