import type { Config } from "../config";
import type { Db } from "../db/client";
import { isAppError } from "../errors";
import { isMemoryType } from "../memdir/frontmatter";
import { readStoreManifest, type StoreMemory, type StoreProject } from "../store/read-store";
import type { StoreManifest } from "../store/store-manifest";
import { ensureReadModel } from "./ensure-read-model";

// teammem.json at a commit never changes: read it once per commit and instance.
let manifestCache: { commit: string | null; manifest: StoreManifest | null } | null = null;

/**
 * The store's projects with their memory counts by type and last change, from the read model:
 * two grouped queries instead of reading every blob and the whole history of every project.
 */
export async function summarizeStoreProjects(config: Config, db: Db): Promise<StoreProject[]> {
  const { commit } = await ensureReadModel(config, db);
  const manifest = manifestCache?.commit === commit ? manifestCache.manifest : await readManifestAt(config, commit);
  if (!manifest) return [];
  const [byType, latest] = await Promise.all([
    db.storeMemory.groupBy({ by: ["projectId", "type"], _count: { _all: true } }),
    db.storeMemory.groupBy({ by: ["projectId"], _max: { changedAt: true } }),
  ]);
  const lastChanged = new Map(latest.map((group) => [group.projectId, group._max.changedAt]));
  return manifest.projects.map((project) => {
    const countsByType = { user: 0, feedback: 0, project: 0, reference: 0, untyped: 0 };
    for (const group of byType) if (group.projectId === project.id) countsByType[isMemoryType(group.type) ? group.type : "untyped"] += group._count._all;
    return {
      id: project.id,
      name: project.name,
      remote: project.remote ?? null,
      memoryCount: Object.values(countsByType).reduce((sum, count) => sum + count, 0),
      countsByType,
      lastChangedAt: lastChanged.get(project.id) ?? null,
    };
  });
}

/**
 * teammem.json at the read model's commit, cached for it. When the store cannot be read (another
 * instance's commit, whose objects this clone borrows from a store that went away), the last one
 * this instance read, not cached, so the pages keep serving the last known projects, as the
 * README promises, and the next read tries the commit again.
 */
async function readManifestAt(config: Config, commit: string | null): Promise<StoreManifest | null> {
  try {
    const manifest = await readStoreManifest(config);
    manifestCache = { commit, manifest };
    return manifest;
  } catch (error) {
    const lastKnown = manifestCache?.manifest;
    if (!isAppError(error) || error.code !== "STORE_UNAVAILABLE" || !lastKnown) throw error;
    return lastKnown;
  }
}

export type MemoryPage = { page: number; pageSize: number };

/** One page of a project's memories, newest first, from the read model (what GET /api/projects/:id lists). */
export async function listReadModelMemories(config: Config, db: Db, projectId: string, { page, pageSize }: MemoryPage): Promise<StoreMemory[]> {
  await ensureReadModel(config, db);
  const rows = await db.storeMemory.findMany({
    where: { projectId },
    orderBy: [{ changedAt: "desc" }, { path: "asc" }],
    skip: (page - 1) * pageSize,
    take: pageSize,
    select: { path: true, name: true, description: true, type: true, changedAt: true, bodyBytes: true },
  });
  return rows.map((row) => ({ path: row.path, name: row.name, description: row.description, type: isMemoryType(row.type) ? row.type : null, updatedAt: row.changedAt, size: row.bodyBytes }));
}
