import type { Config } from "../config";
import type { Db } from "../db/client";
import { compareIndexOrder, type ProjectIndexHeader } from "../store/regenerate-project-index";
import { syncReadModel } from "./sync-read-model";

/**
 * Per project, the headers at the last commit this instance regenerated MEMORY.md for or read.
 * Keyed by commit, so a commit made elsewhere is a miss (several instances stay correct), and the
 * next approval here skips a query for every memory of the project.
 */
const headersByProject = new Map<string, { commit: string; headers: ProjectIndexHeader[] }>();

/**
 * A project's memory headers at `head`, for regenerating its MEMORY.md in a commit without
 * reading every blob and the whole history: the read model is brought to `head` (the clone was
 * just fetched, so that is a small diff) and read in one query. Null when it cannot reach that
 * exact commit; the caller then regenerates from git.
 */
export async function listIndexHeaders(config: Config, db: Db, projectId: string, head: string): Promise<ProjectIndexHeader[] | null> {
  const remembered = headersByProject.get(projectId);
  if (remembered?.commit === head) return remembered.headers;
  const sync = await syncReadModel(config, db, { mayFetch: false });
  if (sync.commit !== head) return null;
  const rows = await db.storeMemory.findMany({ where: { projectId }, select: { path: true, name: true, description: true, changedAt: true } });
  const headers = rows.map((row) => ({ path: row.path, name: row.name, description: row.description, updatedAt: row.changedAt })).sort(compareIndexOrder);
  rememberIndexHeaders(projectId, head, headers);
  return headers;
}

/** After a commit: the headers its MEMORY.md was regenerated from are the project's at that commit. */
export function rememberIndexHeaders(projectId: string, commit: string, headers: ProjectIndexHeader[]): void {
  headersByProject.set(projectId, { commit, headers });
}
