import type { Config } from "../config";
import type { Db } from "../db/client";
import type { ProjectIndexHeader } from "../store/regenerate-project-index";
import { syncReadModel } from "./sync-read-model";

/**
 * A project's memory headers at `head`, for regenerating its MEMORY.md in a commit without
 * reading every blob and the whole history: the read model is brought to `head` (the clone was
 * just fetched, so that is a small diff) and read in one query. Null when it cannot reach that
 * exact commit; the caller then regenerates from git.
 */
export async function listIndexHeaders(config: Config, db: Db, projectId: string, head: string): Promise<ProjectIndexHeader[] | null> {
  const sync = await syncReadModel(config, db, { mayFetch: false });
  if (sync.commit !== head) return null;
  const rows = await db.storeMemory.findMany({ where: { projectId }, select: { path: true, name: true, description: true, changedAt: true } });
  return rows.map((row) => ({ path: row.path, name: row.name, description: row.description, updatedAt: row.changedAt }));
}
