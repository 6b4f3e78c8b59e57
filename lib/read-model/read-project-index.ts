import type { Config } from "../config";
import type { Db } from "../db/client";
import { changedPaths } from "../store/git";
import { ProjectIndex } from "../store/project-index";
import type { ProjectIndexHeader } from "../store/regenerate-project-index";
import { projectDir } from "../store/store-manifest";
import { syncReadModel } from "./sync-read-model";

/**
 * Per project, its MEMORY.md at the last commit this instance regenerated it for or read.
 * Keyed by commit, so a commit made elsewhere is a miss (several instances stay correct), and the
 * next approval here skips a query for every memory of the project.
 */
const indexByProject = new Map<string, { commit: string; index: ProjectIndex }>();

/** Beyond this many changed files since the remembered commit, all headers are read again. */
const MAX_CHANGED_TO_FOLLOW = 500;
/** Beyond this many, the index is built again from its headers rather than spliced line by line. */
const MAX_CHANGED_TO_SPLICE = 32;

/**
 * A project's MEMORY.md and the headers it lists at `head`, for regenerating it in a commit
 * without reading every blob and the whole history: the read model is brought to `head` (the clone was
 * just fetched, so that is a small diff) and read. When this instance remembers the headers of an
 * earlier commit (another instance committed since), only the files that differ between the two
 * trees are read: two instances taking turns at the store read 10,000 rows at every turn before.
 * Null when it cannot reach that exact commit; the caller then regenerates from git.
 */
export async function readProjectIndex(config: Config, db: Db, projectId: string, head: string): Promise<ProjectIndex | null> {
  const remembered = indexByProject.get(projectId);
  if (remembered?.commit === head) return remembered.index;
  const sync = await syncReadModel(config, db, { mayFetch: false });
  if (sync.commit !== head) return null;
  const index = (remembered && (await followChanges(config, db, projectId, remembered, head))) ?? ProjectIndex.fromHeaders(await readHeaders(db, projectId));
  rememberProjectIndex(projectId, head, index);
  return index;
}

/** After a commit: the index it wrote is the project's at that commit. */
export function rememberProjectIndex(projectId: string, commit: string, index: ProjectIndex): void {
  indexByProject.set(projectId, { commit, index });
}

/** The project's headers (or those of `paths`) as the read model has them. */
async function readHeaders(db: Db, projectId: string, paths?: string[]): Promise<ProjectIndexHeader[]> {
  const rows = await db.storeMemory.findMany({ where: { projectId, ...(paths ? { path: { in: paths } } : {}) }, select: { path: true, name: true, description: true, changedAt: true } });
  return rows.map((row) => ({ path: row.path, name: row.name, description: row.description, updatedAt: row.changedAt }));
}

/** The remembered index moved to `head` by the files whose blobs differ; null when that is not cheaper. */
async function followChanges(config: Config, db: Db, projectId: string, remembered: { commit: string; index: ProjectIndex }, head: string): Promise<ProjectIndex | null> {
  const prefix = `${projectDir(projectId)}/`;
  const changes = await changedPaths(config.storeCloneDir, remembered.commit, head, prefix).catch(() => null);
  if (changes === null || changes.length > MAX_CHANGED_TO_FOLLOW) return null;
  const paths = changes.map((change) => change.path.slice(prefix.length));
  const changed = paths.length > 0 ? await readHeaders(db, projectId, paths) : [];
  if (paths.length > MAX_CHANGED_TO_SPLICE) {
    const moved = new Set(paths);
    return ProjectIndex.fromHeaders([...remembered.index.headers.filter((header) => !moved.has(header.path)), ...changed]);
  }
  let index = paths.reduce((followed, path) => followed.without(path), remembered.index);
  for (const header of changed) index = index.with(header);
  return index;
}
