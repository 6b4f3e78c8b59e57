import type { Config } from "../config";
import type { Db } from "../db/client";
import { changedPaths } from "../store/git";
import { compareIndexOrder, insertInIndexOrder, type ProjectIndexHeader } from "../store/regenerate-project-index";
import { projectDir } from "../store/store-manifest";
import { syncReadModel } from "./sync-read-model";

/**
 * Per project, the headers at the last commit this instance regenerated MEMORY.md for or read.
 * Keyed by commit, so a commit made elsewhere is a miss (several instances stay correct), and the
 * next approval here skips a query for every memory of the project.
 */
const headersByProject = new Map<string, { commit: string; headers: ProjectIndexHeader[] }>();

/** Beyond this many changed files since the remembered commit, all headers are read again. */
const MAX_CHANGED_TO_FOLLOW = 500;

/**
 * A project's memory headers at `head`, for regenerating its MEMORY.md in a commit without
 * reading every blob and the whole history: the read model is brought to `head` (the clone was
 * just fetched, so that is a small diff) and read. When this instance remembers the headers of an
 * earlier commit (another instance committed since), only the files that differ between the two
 * trees are read: two instances taking turns at the store read 10,000 rows at every turn before.
 * Null when it cannot reach that exact commit; the caller then regenerates from git.
 */
export async function listIndexHeaders(config: Config, db: Db, projectId: string, head: string): Promise<ProjectIndexHeader[] | null> {
  const remembered = headersByProject.get(projectId);
  if (remembered?.commit === head) return remembered.headers;
  const sync = await syncReadModel(config, db, { mayFetch: false });
  if (sync.commit !== head) return null;
  const headers = (remembered && (await followChanges(config, db, projectId, remembered, head))) ?? (await readHeaders(db, projectId));
  rememberIndexHeaders(projectId, head, headers);
  return headers;
}

/** After a commit: the headers its MEMORY.md was regenerated from are the project's at that commit. */
export function rememberIndexHeaders(projectId: string, commit: string, headers: ProjectIndexHeader[]): void {
  headersByProject.set(projectId, { commit, headers });
}

/** All of the project's headers, in index order. */
async function readHeaders(db: Db, projectId: string, paths?: string[]): Promise<ProjectIndexHeader[]> {
  const rows = await db.storeMemory.findMany({ where: { projectId, ...(paths ? { path: { in: paths } } : {}) }, select: { path: true, name: true, description: true, changedAt: true } });
  return rows.map((row) => ({ path: row.path, name: row.name, description: row.description, updatedAt: row.changedAt })).sort(compareIndexOrder);
}

/** The remembered headers moved to `head` by the files whose blobs differ; null when that is not cheaper. */
async function followChanges(config: Config, db: Db, projectId: string, remembered: { commit: string; headers: ProjectIndexHeader[] }, head: string): Promise<ProjectIndexHeader[] | null> {
  const prefix = `${projectDir(projectId)}/`;
  const changes = await changedPaths(config.storeCloneDir, remembered.commit, head, prefix).catch(() => null);
  if (changes === null || changes.length > MAX_CHANGED_TO_FOLLOW) return null;
  const paths = changes.map((change) => change.path.slice(prefix.length));
  const changed = new Set(paths);
  let headers = remembered.headers.filter((header) => !changed.has(header.path));
  for (const header of paths.length > 0 ? await readHeaders(db, projectId, paths) : []) headers = insertInIndexOrder(headers, header);
  return headers;
}
