import type { Config } from "../config";
import { directReadsOf, type Db } from "../db/client";
import { log } from "../log";
import { changedPaths, hasCommit, isAncestor, lastChangesOf, listTree, readBlobs, readChangeLog, resolveRefQuickly, type FileChange, type LoggedCommit } from "../store/git";
import { MAIN, refreshStore } from "../store/read-store";
import { hasCredentialInName, isMemoryFile } from "../store/regenerate-project-index";
import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { describeMemoryFile, type StoreMemoryRow } from "./describe-memory-file";

/** The SystemState key holding the store commit the read model reflects. */
export const READ_MODEL_COMMIT_KEY = "read-model-commit";
const PROJECTS_PREFIX = "projects/";
const WRITE_BATCH = 500;

export type ReadModelSync = { commit: string | null; mode: "current" | "behind" | "incremental" | "rebuild" | "empty"; changedFiles: number };

/**
 * Brings the read model to the store's main branch as this instance's clone has it: nothing when
 * it is already there (or another instance already moved it further), the diff's files when the
 * recorded commit is an ancestor (cost grows with the change, not with the project), a rebuild
 * otherwise (history rewritten, first run). Several instances may race: the rows and the new
 * commit are written in one transaction that first moves the recorded commit by compare-and-swap,
 * so an instance that lost the race writes nothing. See docs/store.md, "The read model".
 */
export async function syncReadModel(config: Config, db: Db, options: { mayFetch?: boolean } = {}): Promise<ReadModelSync> {
  const clone = config.storeCloneDir;
  const recorded = await readRecordedCommit(db);
  // Another instance recorded a commit this clone has not fetched: fetch before judging, and
  // never move the read model back to an older head. (Not while the caller holds the clone's lock.)
  if (recorded && !(await hasCommit(clone, recorded))) {
    if (options.mayFetch !== false) await refreshStore(config, { force: true });
    if (!(await hasCommit(clone, recorded))) return { commit: recorded, mode: "behind", changedFiles: 0 };
  }
  const head = await resolveRefQuickly(clone, MAIN);
  if (head === null) return { commit: recorded, mode: "empty", changedFiles: 0 };
  if (recorded === head) return { commit: head, mode: "current", changedFiles: 0 };
  if (recorded && (await isAncestor(clone, head, recorded))) return { commit: recorded, mode: "behind", changedFiles: 0 };
  if (recorded && (await isAncestor(clone, recorded, head))) return applyDiff(config, db, recorded, head);
  return rebuildReadModel(config, db);
}

/** Rebuilds every row from git at the clone's main branch (`teammem reindex`). */
export async function rebuildReadModel(config: Config, db: Db): Promise<ReadModelSync> {
  const clone = config.storeCloneDir;
  const head = await resolveRefQuickly(clone, MAIN);
  if (head === null) return { commit: null, mode: "empty", changedFiles: 0 };
  const recorded = await readRecordedCommit(db);
  const tree = await listTree(clone, head, PROJECTS_PREFIX);
  logFilesLeftOut(tree.map((entry) => entry.path));
  const entries = tree.filter((entry) => toProjectPath(entry.path) !== null);
  const [texts, changeLog] = await Promise.all([readBlobs(clone, entries.map((entry) => entry.blob)), readChangeLog(clone, head, PROJECTS_PREFIX)]);
  const changes = lastChangesOf(changeLog);
  const rows = entries.flatMap((entry) => describeEntry(entry.path, entry.blob, texts, changes));
  const isWritten = await writeRows(db, recorded, head, { replaceAll: true, rows, deleted: [], history: toHistoryRows(changeLog) });
  log("info", "read_model_rebuilt", { commit: head, memories: rows.length, written: isWritten });
  return { commit: head, mode: "rebuild", changedFiles: rows.length };
}

async function applyDiff(config: Config, db: Db, from: string, to: string): Promise<ReadModelSync> {
  const clone = config.storeCloneDir;
  const allChanged = await changedPaths(clone, from, to, PROJECTS_PREFIX);
  logFilesLeftOut(allChanged.filter((change) => !change.isDeleted).map((change) => change.path));
  const changed = allChanged.filter((change) => toProjectPath(change.path) !== null);
  const present = changed.filter((change) => change.blob !== null);
  // One cat-file batch for exactly the changed files, by blob id, whatever the size of the tree.
  const [texts, changeLog] = await Promise.all([
    present.length ? readBlobs(clone, [...new Set(present.map((change) => change.blob!))]) : Promise.resolve(new Map<string, string>()),
    changed.length ? readChangeLog(clone, `${from}..${to}`, PROJECTS_PREFIX) : Promise.resolve([]),
  ]);
  const changes = lastChangesOf(changeLog);
  const rows = present.flatMap((change) => describeEntry(change.path, change.blob!, texts, changes));
  const deleted = changed.filter((change) => change.isDeleted).map((change) => toProjectPath(change.path)!);
  await writeRows(db, from, to, { replaceAll: false, rows, deleted, history: toHistoryRows(changeLog) });
  return { commit: to, mode: "incremental", changedFiles: changed.length };
}

export type OwnCommit = {
  /** The commit it was built on: the read model must be exactly there for this shortcut. */
  parent: string | null;
  commit: string;
  at: Date;
  author: { name: string; email: string };
  subject: string;
  projectId: string;
  path: string;
  /** The file's blob and text in the commit; null when the commit retired it. */
  blob: string | null;
  content: string | null;
};

/**
 * Records the chain of commits this instance just pushed (each on the one before), from what it
 * knows of them, without asking git: the memory each changed and its history row. Same
 * compare-and-swap as a sync, from the first commit's parent to the last commit, so it writes
 * nothing (false) when the read model is anywhere else; the caller then syncs from git.
 */
export async function recordOwnCommits(db: Db, owns: OwnCommit[]): Promise<boolean> {
  const first = owns[0];
  if (!first || first.parent === null || owns.some((own, index) => !isMemoryFile(own.path) || (index > 0 && own.parent !== owns[index - 1]!.commit))) return false;
  // Each file as the last commit of the chain left it: one write for the chain, one compare-and-swap.
  const last = new Map<string, OwnCommit>();
  for (const own of owns) last.set(`${own.projectId}/${own.path}`, own);
  const rows: StoreMemoryRow[] = [];
  const deleted: { projectId: string; path: string }[] = [];
  for (const own of last.values()) {
    const change = { commit: own.commit, at: own.at, author: own.author.name };
    if (own.blob !== null && own.content !== null) rows.push(describeMemoryFile({ projectId: own.projectId, path: own.path, blob: own.blob, text: own.content, change }));
    else deleted.push({ projectId: own.projectId, path: own.path });
  }
  const history = owns.map((own) => maskHistoryRow({ projectId: own.projectId, path: own.path, commit: own.commit, at: own.at, authorName: own.author.name, authorEmail: own.author.email, subject: own.subject }));
  return writeRows(db, first.parent, owns.at(-1)!.commit, { replaceAll: false, rows, deleted, history });
}

function describeEntry(fullPath: string, blob: string, texts: Map<string, string>, changes: Map<string, FileChange>): StoreMemoryRow[] {
  const target = toProjectPath(fullPath);
  const text = texts.get(blob);
  const change = changes.get(fullPath);
  if (!target || text === undefined || !change) return [];
  return [describeMemoryFile({ ...target, blob, text, change })];
}

/**
 * Says, without the names, how many `.md` files per project teammem leaves out because their
 * names hold a credential (pushed from outside teammem): a lead removes them with git.
 */
function logFilesLeftOut(fullPaths: string[]): void {
  const counts = new Map<string, number>();
  for (const fullPath of fullPaths) {
    const rest = fullPath.slice(PROJECTS_PREFIX.length);
    const slash = rest.indexOf("/");
    if (!fullPath.startsWith(PROJECTS_PREFIX) || slash <= 0 || !fullPath.endsWith(".md") || !hasCredentialInName(rest.slice(slash + 1))) continue;
    counts.set(rest.slice(0, slash), (counts.get(rest.slice(0, slash)) ?? 0) + 1);
  }
  for (const [projectId, files] of counts) log("warn", "store_files_left_out", { projectId: maskSecretsInQuotedNames(projectId), files, reason: "a credential in the file name; remove them with git" });
}

/** `projects/<id>/<path>` → its project and memory path, or null for anything that is not a memory. */
function toProjectPath(fullPath: string): { projectId: string; path: string } | null {
  if (!fullPath.startsWith(PROJECTS_PREFIX)) return null;
  const rest = fullPath.slice(PROJECTS_PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return null;
  const memoryPath = rest.slice(slash + 1);
  return isMemoryFile(memoryPath) ? { projectId: rest.slice(0, slash), path: memoryPath } : null;
}

export async function readRecordedCommit(db: Db): Promise<string | null> {
  // Every read of the store makes this read: on the driver (lib/db/direct-reads.ts).
  return (await directReadsOf(db).one<{ value: string }>(`SELECT "value" FROM "SystemState" WHERE "key" = ?`, [READ_MODEL_COMMIT_KEY]))?.value ?? null;
}

type HistoryRow = { projectId: string; path: string; commit: string; at: Date; authorName: string; authorEmail: string; subject: string };

/**
 * A commit's subject and author as every history shows them: a push from outside teammem may
 * carry a credential there (a subject naming a token), and the rows go to the database and to
 * every memory page the commit touched.
 */
function maskHistoryRow(row: HistoryRow): HistoryRow {
  return { ...row, subject: maskSecretsInQuotedNames(row.subject), authorName: maskSecretsInQuotedNames(row.authorName), authorEmail: maskSecretsInQuotedNames(row.authorEmail) };
}
/** `history` oldest commit first: each row's `seq` follows that order (see writeRows). */
type RowWrite = { replaceAll: boolean; rows: StoreMemoryRow[]; deleted: { projectId: string; path: string }[]; history: HistoryRow[] };

function groupPathsByProject(files: { projectId: string; path: string }[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const paths = groups.get(file.projectId);
    if (paths) paths.push(file.path);
    else groups.set(file.projectId, [file.path]);
  }
  return groups;
}

/** One history row per memory file a commit changed (MEMORY.md and other files are not memories), oldest first. */
function toHistoryRows(changeLog: LoggedCommit[]): HistoryRow[] {
  return changeLog.toReversed().flatMap((commit) =>
    commit.paths.flatMap((fullPath) => {
      const target = toProjectPath(fullPath);
      return target ? [maskHistoryRow({ ...target, commit: commit.commit, at: commit.at, authorName: commit.authorName, authorEmail: commit.authorEmail, subject: commit.subject })] : [];
    }),
  );
}

/** Moves the recorded commit from `from` to `to` and writes the rows, all or nothing; false when another instance moved it first. */
async function writeRows(db: Db, from: string | null, to: string, write: RowWrite): Promise<boolean> {
  return db.$transaction(async (tx) => {
    // With nothing recorded yet (first run) the commit is simply set: every writer then leaves
    // rows and commit in agreement, the last one wins, and the next sync moves it forward.
    const moved = from === null
      ? (await tx.systemState.upsert({ where: { key: READ_MODEL_COMMIT_KEY }, create: { key: READ_MODEL_COMMIT_KEY, value: to }, update: { value: to } }), 1)
      : (await tx.systemState.updateMany({ where: { key: READ_MODEL_COMMIT_KEY, value: from }, data: { value: to } })).count;
    if (moved === 0) return false;
    if (write.replaceAll) {
      await tx.storeMemory.deleteMany({});
      await tx.storeMemoryChange.deleteMany({});
    }
    // The commits of an update are new to the read model; clearing them first keeps a retried write exact.
    else {
      // Batched: a push of thousands of commits must stay under the database's parameter limit.
      const commits = [...new Set(write.history.map((row) => row.commit))];
      for (let start = 0; start < commits.length; start += WRITE_BATCH) await tx.storeMemoryChange.deleteMany({ where: { commit: { in: commits.slice(start, start + WRITE_BATCH) } } });
    }
    // Git's times are whole seconds: the order the commits came in breaks a file's ties (several
    // approvals in one second), after every row recorded before, inside this transaction.
    const base = write.replaceAll ? 0 : ((await tx.storeMemoryChange.aggregate({ _max: { seq: true } }))._max.seq ?? 0);
    const history = write.history.map((row, index) => ({ ...row, seq: base + index + 1 }));
    for (let start = 0; start < history.length; start += WRITE_BATCH) await tx.storeMemoryChange.createMany({ data: history.slice(start, start + WRITE_BATCH) });
    // Rows replaced or removed, per project in batches: one statement per file made a catch-up of
    // 10,000 outside commits spend ~20 s in the database client alone.
    const replaced = write.replaceAll ? write.deleted : [...write.deleted, ...write.rows];
    for (const [projectId, paths] of groupPathsByProject(replaced)) {
      for (let start = 0; start < paths.length; start += WRITE_BATCH) await tx.storeMemory.deleteMany({ where: { projectId, path: { in: paths.slice(start, start + WRITE_BATCH) } } });
    }
    for (let start = 0; start < write.rows.length; start += WRITE_BATCH) await tx.storeMemory.createMany({ data: write.rows.slice(start, start + WRITE_BATCH) });
    return true;
  }, { timeout: 120_000, maxWait: 30_000 });
}
