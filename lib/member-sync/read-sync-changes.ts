import type { Config } from "../config";
import { maskedBlobId } from "../store/masked-blob-id";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { readRecordedCommit } from "../read-model/sync-read-model";
import { maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import { scanSecrets } from "../secrets/scan-secrets";
import { changedPaths, hasCommit, isAncestor, lastCommitOf, readBlobs, readFilesAt } from "../store/git";
import { isMemoryFile, PROJECT_INDEX_FILE } from "../store/regenerate-project-index";
import { projectDir } from "../store/store-manifest";
import { listTrackedProposals } from "./list-tracked-proposals";
import type { SyncAnswer, SyncFile } from "./sync-answer";

export const DEFAULT_SYNC_PAGE_SIZE = 500;
export const MAX_SYNC_PAGE_SIZE = 2_000;
/** Paths per read-model query: SQLite refuses statements with too many bound variables. */
const ROW_QUERY_CHUNK = 400;

export type ReadSyncChangesOptions = {
  projectId: string;
  userId: string;
  /** The store commit the member's folder was last brought to; null for a first sync. */
  since: string | null;
  /** Pages after the first name the head page 1 answered, so all pages describe one commit. */
  expectedHead: string | null;
  page: number;
  pageSize: number;
  /** The caller's sync proposals whose outcome the client waits for. */
  proposalIds: string[];
};

/**
 * What a member's `team/` folder needs to reach the store's head, computed from git: the files
 * changed since `since` (`diff-tree` on the project's folder, cost grows with the change), or
 * every file when `since` is absent, unknown or no ancestor of the head (history rewritten), in
 * pages read from the read model. Each file's blob, last change and secret verdict come from the
 * read model, which describes exactly this head; the texts of a page from one `cat-file --batch`.
 * A file holding a secret is sent masked.
 */
export async function readSyncChanges(config: Config, db: Db, options: ReadSyncChangesOptions): Promise<SyncAnswer> {
  const { commit: head } = await ensureReadModel(config, db);
  if (options.expectedHead && options.expectedHead !== head) throw storeMoved();
  const empty = { projectId: options.projectId, head, since: options.since, files: [], removed: [], page: options.page, pageCount: 1, changedMemories: 0 };
  const proposals = options.page === 1 ? await listTrackedProposals(config, db, { projectId: options.projectId, userId: options.userId, head, proposalIds: options.proposalIds, includeOpen: options.since === null }) : [];
  if (head === null) return { ...empty, isUnchanged: options.since === null, full: true, proposals };
  if (options.since === head) return { ...empty, isUnchanged: true, full: false, proposals };

  const clone = config.storeCloneDir;
  const prefix = `${projectDir(options.projectId)}/`;
  const isFull = options.since === null || !(await hasCommit(clone, options.since)) || !(await isAncestor(clone, options.since, head));
  if (isFull) return { ...empty, ...(await readFullPage(config, db, { ...options, head })), isUnchanged: false, full: true, proposals };
  const changes = (await changedPaths(clone, options.since!, head, prefix)).map((change) => ({ path: change.path.slice(prefix.length), isDeleted: change.isDeleted }));
  const synced = changes.filter((entry) => isSyncedFile(entry.path));
  const present = synced.filter((entry) => !entry.isDeleted).map((entry) => entry.path).sort();
  const pageCount = Math.max(1, Math.ceil(present.length / options.pageSize));
  const pagePaths = present.slice((options.page - 1) * options.pageSize, options.page * options.pageSize);
  return {
    ...empty,
    isUnchanged: false,
    full: false,
    files: await readSyncFiles(config, db, { projectId: options.projectId, head, paths: pagePaths }),
    removed: options.page === 1 ? synced.filter((entry) => entry.isDeleted).map((entry) => entry.path).sort() : [],
    pageCount,
    changedMemories: present.filter((memoryPath) => memoryPath !== PROJECT_INDEX_FILE).length,
    proposals,
  };
}

/**
 * A page of every file at `head`, from the read model, which holds each memory's blob, last
 * change and secret verdict for exactly that commit: one range of rows in path order, then their
 * blobs in one `cat-file --batch`. No page lists the project's tree (which made a full pull cost
 * pages × memories). `MEMORY.md` travels on page 1, read from git. Rows read while another
 * commit was being recorded would mix two commits: then the store moved (409, the client starts
 * again).
 */
async function readFullPage(config: Config, db: Db, options: ReadSyncChangesOptions & { head: string }): Promise<Pick<SyncAnswer, "files" | "removed" | "pageCount" | "changedMemories">> {
  const where = { projectId: options.projectId };
  const [count, rows] = await Promise.all([
    db.storeMemory.count({ where }),
    db.storeMemory.findMany({ where, orderBy: { path: "asc" }, skip: (options.page - 1) * options.pageSize, take: options.pageSize, select: { path: true, blob: true, changedAt: true, changedCommit: true, hasSecret: true } }),
  ]);
  if ((await readRecordedCommit(db)) !== options.head) throw storeMoved();
  const [contents, index] = await Promise.all([
    readAllBlobs(config, rows.map((row) => row.blob)),
    options.page === 1 ? readSyncFiles(config, db, { projectId: options.projectId, head: options.head, paths: [PROJECT_INDEX_FILE] }) : Promise.resolve([]),
  ]);
  const files = rows.flatMap((row): SyncFile[] => {
    const content = contents.get(row.blob);
    return content === undefined ? [] : [syncFile(config, row.path, content, row.blob, row.hasSecret, { at: row.changedAt, commit: row.changedCommit })];
  });
  return { files: [...index, ...files], removed: [], pageCount: Math.max(1, Math.ceil(count / options.pageSize)), changedMemories: count };
}

/**
 * Every blob the read model names for an answer, or STORE_UNAVAILABLE. A blob the clone cannot
 * read (its objects live in a store that moved or went away) was left out of the answer, which
 * still said it was the full listing: the member's team/ took the rest for retired files' absence
 * and stayed short of them for good. Nothing is answered until every file can be.
 */
async function readAllBlobs(config: Config, blobs: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(blobs)];
  const contents = await readBlobs(config.storeCloneDir, unique);
  const missing = unique.filter((blob) => !contents.has(blob)).length;
  if (missing > 0) throw new AppError("STORE_UNAVAILABLE", `${missing} file${missing === 1 ? "" : "s"} of the team store could not be read (is the store reachable?); nothing was sent, so sync again once it is.`);
  return contents;
}

function storeMoved(): AppError {
  return new AppError("CONFLICT", "The team store moved on while you were reading pages of it; start again from page 1.");
}

function isSyncedFile(memoryPath: string): boolean {
  return memoryPath === PROJECT_INDEX_FILE || isMemoryFile(memoryPath);
}

export type ReadSyncFilesOptions = {
  projectId: string;
  head: string;
  paths: string[];
};

/**
 * The files at `head` with their last change, masked where a secret is. A memory's blob, last
 * change and verdict come from the read model (which describes exactly `head`), its text from
 * one `cat-file --batch` by blob id; `MEMORY.md`, which the read model does not hold, from git
 * by path (each such request walks the project's tree: about 1 ms at 5,000 memories).
 */
export async function readSyncFiles(config: Config, db: Db, { projectId, head, paths }: ReadSyncFilesOptions): Promise<SyncFile[]> {
  if (paths.length === 0) return [];
  const prefix = `${projectDir(projectId)}/`;
  const rows = await readChangeRows(db, projectId, paths.filter((memoryPath) => memoryPath !== PROJECT_INDEX_FILE));
  if ((await readRecordedCommit(db)) !== head) throw storeMoved();
  const rowByPath = new Map(rows.map((row) => [row.path, row]));
  const unrecorded = paths.filter((memoryPath) => !rowByPath.has(memoryPath));
  const [contents, fromGit, indexChange] = await Promise.all([
    readAllBlobs(config, rows.map((row) => row.blob)),
    unrecorded.length > 0 ? readFilesAt(config.storeCloneDir, head, unrecorded.map((memoryPath) => prefix + memoryPath)) : Promise.resolve(new Map<string, { blob: string; content: string }>()),
    paths.includes(PROJECT_INDEX_FILE) ? lastCommitOf(config.storeCloneDir, head, prefix + PROJECT_INDEX_FILE) : Promise.resolve(null),
  ]);
  return paths.flatMap((memoryPath): SyncFile[] => {
    const row = rowByPath.get(memoryPath);
    if (row) {
      const content = contents.get(row.blob);
      return content === undefined ? [] : [syncFile(config, memoryPath, content, row.blob, row.hasSecret, { at: row.changedAt, commit: row.changedCommit })];
    }
    const file = fromGit.get(prefix + memoryPath);
    // Without a row (the index) the verdict is taken now.
    return file ? [syncFile(config, memoryPath, file.content, file.blob, scanSecrets(file.content).length > 0, indexChange ?? { at: new Date(0), commit: head })] : [];
  });
}

/** A file as a member gets it: masked where a secret is, under its masked id then (masked-blob-id.ts). */
function syncFile(config: Config, memoryPath: string, content: string, blob: string, hasSecret: boolean, change: { at: Date; commit: string }): SyncFile {
  if (!hasSecret) return { path: memoryPath, content, blob, masked: false, changedAt: change.at, changedCommit: change.commit };
  return { path: memoryPath, content: maskSecretsForDisplay(content), blob: maskedBlobId(config, blob), masked: true, changedAt: change.at, changedCommit: change.commit };
}

/** The read-model rows of the given files, by name (scattered across the project: a change listing). */
async function readChangeRows(db: Db, projectId: string, memoryPaths: string[]) {
  const select = { path: true, blob: true, changedAt: true, changedCommit: true, hasSecret: true } as const;
  const chunks: string[][] = [];
  for (let start = 0; start < memoryPaths.length; start += ROW_QUERY_CHUNK) chunks.push(memoryPaths.slice(start, start + ROW_QUERY_CHUNK));
  const results = await Promise.all(chunks.map((chunk) => db.storeMemory.findMany({ where: { projectId, path: { in: chunk } }, select })));
  return results.flat();
}
