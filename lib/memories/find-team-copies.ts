import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Caller } from "../auth/resolve-caller";
import { listVisibleProjectIds } from "../auth/permissions";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { gitBlobId } from "../sync/git-blob-id";

/** A team memory that already holds a private one: the same text, or a file of the same name. */
export type TeamCopy = { projectId: string; path: string; match: "same-content" | "same-path" };

/**
 * For the private memories on one page of the list: which are already in a team project the
 * caller can see. One read-model query for the page's names and content ids (the files' own git
 * blob ids), so the cost follows the page, not the store. A file in the private folder's `team/`
 * is compared by its path inside `team/` (that is where sync puts the store's files).
 */
export async function findTeamCopies(options: { config: Config; db: Db; caller: Caller; memoryDir: string; paths: string[] }): Promise<Map<string, TeamCopy[]>> {
  const { config, db, caller, memoryDir, paths } = options;
  const copies = new Map<string, TeamCopy[]>();
  const projectIds = await listVisibleProjectIds(db, caller);
  if (projectIds.length === 0 || paths.length === 0) return copies;
  const files = await Promise.all(
    paths.map(async (memoryPath) => {
      const text = await readFile(path.join(memoryDir, memoryPath)).catch(() => null);
      return { memoryPath, storePath: memoryPath.replace(/^team\//, ""), blob: text ? gitBlobId(text) : null };
    }),
  );
  await ensureReadModel(config, db);
  const blobs = files.flatMap((file) => (file.blob ? [file.blob] : []));
  const rows = await db.storeMemory.findMany({
    where: { projectId: { in: projectIds }, OR: [{ path: { in: files.map((file) => file.storePath) } }, { blob: { in: blobs } }] },
    select: { projectId: true, path: true, blob: true },
    orderBy: [{ projectId: "asc" }, { path: "asc" }],
  });
  for (const file of files) {
    const found = rows
      .filter((row) => row.blob === file.blob || row.path === file.storePath)
      .map((row): TeamCopy => ({ projectId: row.projectId, path: row.path, match: row.blob === file.blob ? "same-content" : "same-path" }));
    if (found.length > 0) copies.set(file.memoryPath, found);
  }
  return copies;
}
