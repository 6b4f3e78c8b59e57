import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import { scanSecrets } from "../secrets/scan-secrets";
import { changedPaths, hasCommit, isAncestor, lastCommitOf, listTree, readBlobs, readFilesAt } from "../store/git";
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
 * every file when `since` is absent, unknown or no ancestor of the head (history rewritten). The
 * contents of one page come from one `cat-file --batch`; each file's last-change time comes from
 * the read model, which describes exactly this head. A file holding a secret is sent masked.
 */
export async function readSyncChanges(config: Config, db: Db, options: ReadSyncChangesOptions): Promise<SyncAnswer> {
  const { commit: head } = await ensureReadModel(config, db);
  if (options.expectedHead && options.expectedHead !== head) {
    throw new AppError("CONFLICT", "The team store moved on while you were reading pages of it; start again from page 1.");
  }
  const empty = { projectId: options.projectId, head, since: options.since, files: [], removed: [], page: options.page, pageCount: 1 };
  const proposals = options.page === 1 ? await listTrackedProposals(config, db, { projectId: options.projectId, userId: options.userId, head, proposalIds: options.proposalIds }) : [];
  if (head === null) return { ...empty, isUnchanged: options.since === null, full: true, proposals };
  if (options.since === head) return { ...empty, isUnchanged: true, full: false, proposals };

  const clone = config.storeCloneDir;
  const prefix = `${projectDir(options.projectId)}/`;
  const isFull = options.since === null || !(await hasCommit(clone, options.since)) || !(await isAncestor(clone, options.since, head));
  const listing: { path: string; isDeleted: boolean; blob?: string }[] = isFull
    ? (await listTree(clone, head, prefix)).map((entry) => ({ path: entry.path.slice(prefix.length), isDeleted: false, blob: entry.blob }))
    : (await changedPaths(clone, options.since!, head, prefix)).map((change) => ({ path: change.path.slice(prefix.length), isDeleted: change.isDeleted }));
  const synced = listing.filter((entry) => isSyncedFile(entry.path));
  const present = synced.filter((entry) => !entry.isDeleted).map((entry) => entry.path).sort();
  const pageCount = Math.max(1, Math.ceil(present.length / options.pageSize));
  const pagePaths = present.slice((options.page - 1) * options.pageSize, options.page * options.pageSize);
  return {
    ...empty,
    isUnchanged: false,
    full: isFull,
    files: await readSyncFiles(config, db, { projectId: options.projectId, head, paths: pagePaths, blobs: isFull ? new Map(synced.map((entry) => [entry.path, entry.blob!])) : undefined }),
    removed: options.page === 1 ? synced.filter((entry) => entry.isDeleted).map((entry) => entry.path).sort() : [],
    pageCount,
    proposals,
  };
}

function isSyncedFile(memoryPath: string): boolean {
  return memoryPath === PROJECT_INDEX_FILE || isMemoryFile(memoryPath);
}

export type ReadSyncFilesOptions = {
  projectId: string;
  head: string;
  paths: string[];
  /** Each path's blob at `head`, when already listed: blobs are then read by id. */
  blobs?: Map<string, string>;
};

/** The files at `head` with their last change (read model; MEMORY.md from git), masked where a secret is. */
export async function readSyncFiles(config: Config, db: Db, { projectId, head, paths, blobs }: ReadSyncFilesOptions): Promise<SyncFile[]> {
  if (paths.length === 0) return [];
  const prefix = `${projectDir(projectId)}/`;
  const memoryPaths = paths.filter((memoryPath) => memoryPath !== PROJECT_INDEX_FILE);
  const [files, rows, indexChange] = await Promise.all([
    readFilesOfHead(config.storeCloneDir, head, prefix, paths, blobs),
    readChangeRows(db, projectId, memoryPaths, { isWholeRun: blobs !== undefined }),
    paths.includes(PROJECT_INDEX_FILE) ? lastCommitOf(config.storeCloneDir, head, prefix + PROJECT_INDEX_FILE) : Promise.resolve(null),
  ]);
  const rowByPath = new Map(rows.map((row) => [row.path, row]));
  return paths.flatMap((memoryPath) => {
    const file = files.get(memoryPath);
    if (!file) return [];
    const row = rowByPath.get(memoryPath);
    const change = row ? { at: row.changedAt, commit: row.changedCommit } : (indexChange ?? { at: new Date(0), commit: head });
    // The read model's verdict was taken when the row was written; without a row (the index) scan now.
    const hasSecret = row ? row.hasSecret : scanSecrets(file.content).length > 0;
    return [{ path: memoryPath, content: hasSecret ? maskSecretsForDisplay(file.content) : file.content, blob: file.blob, masked: hasSecret, changedAt: change.at, changedCommit: change.commit }];
  });
}

/**
 * The files' blobs and texts. By blob id when the listing named them: `cat-file` then finds each
 * object directly, where a `<commit>:<path>` request walks the project's tree again for every
 * file (about 1 ms per file at 5,000 memories).
 */
async function readFilesOfHead(clone: string, head: string, prefix: string, paths: string[], blobs: Map<string, string> | undefined): Promise<Map<string, { blob: string; content: string }>> {
  if (!blobs) {
    const found = await readFilesAt(clone, head, paths.map((memoryPath) => prefix + memoryPath));
    return new Map(paths.flatMap((memoryPath) => (found.has(prefix + memoryPath) ? [[memoryPath, found.get(prefix + memoryPath)!] as const] : [])));
  }
  const ids = paths.map((memoryPath) => blobs.get(memoryPath)).filter((blob): blob is string => blob !== undefined);
  const contents = await readBlobs(clone, [...new Set(ids)]);
  return new Map(paths.flatMap((memoryPath) => {
    const blob = blobs.get(memoryPath);
    const content = blob === undefined ? undefined : contents.get(blob);
    return content === undefined ? [] : [[memoryPath, { blob: blob!, content }] as const];
  }));
}

/**
 * The read-model rows of a page's files. A page of a full listing is a whole run of the sorted
 * paths, so one range query finds them (each query costs Prisma a compile: a 2,000-file page in
 * chunks of 400 took five). Rows the range misses, where the database orders text differently
 * from JavaScript, are asked for by name, as are the scattered files of a change listing.
 */
async function readChangeRows(db: Db, projectId: string, memoryPaths: string[], { isWholeRun }: { isWholeRun: boolean }) {
  if (memoryPaths.length === 0) return [];
  const select = { path: true, changedAt: true, changedCommit: true, hasSecret: true } as const;
  if (!isWholeRun) return readRowsByName(db, projectId, memoryPaths, select);
  const wanted = new Set(memoryPaths);
  const sorted = [...memoryPaths].sort();
  const inRange = await db.storeMemory.findMany({ where: { projectId, path: { gte: sorted[0], lte: sorted[sorted.length - 1] } }, select });
  const rows = inRange.filter((row) => wanted.has(row.path));
  const found = new Set(rows.map((row) => row.path));
  const missing = memoryPaths.filter((memoryPath) => !found.has(memoryPath));
  return missing.length === 0 ? rows : [...rows, ...(await readRowsByName(db, projectId, missing, select))];
}

type ChangeRowSelect = { path: true; changedAt: true; changedCommit: true; hasSecret: true };

async function readRowsByName(db: Db, projectId: string, memoryPaths: string[], select: ChangeRowSelect) {
  const chunks: string[][] = [];
  for (let start = 0; start < memoryPaths.length; start += ROW_QUERY_CHUNK) chunks.push(memoryPaths.slice(start, start + ROW_QUERY_CHUNK));
  const results = await Promise.all(chunks.map((chunk) => db.storeMemory.findMany({ where: { projectId, path: { in: chunk } }, select })));
  return results.flat();
}
