import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { listReadModelMemories, summarizeStoreProjects } from "../read-model/summarize-store-projects";
import type { StoreMemory } from "../store/read-store";
import { PROJECT_ROW_INCLUDE, toProjectSummary, type ProjectSummary } from "./project-summary";

/**
 * One project with its team memories at the store's head, newest first. A project with no
 * memory yet (just created, or not in the store at all) answers with none instead of failing.
 * The caller's access is checked before this is called.
 */
export type ProjectWithMemories = { project: ProjectSummary; memories: StoreMemory[]; page: number; pageSize: number; pageCount: number };

/** Memories per page of GET /api/projects/:id unless the caller asks for another size (at most 500). */
export const DEFAULT_MEMORY_PAGE_SIZE = 100;

export async function getProject(config: Config, db: Db, projectId: string, options: { withMemories?: boolean; page?: number; pageSize?: number } = {}): Promise<ProjectWithMemories> {
  const row = await db.project.findUnique({ where: { id: projectId }, include: PROJECT_ROW_INCLUDE });
  if (!row) throw new AppError("NOT_FOUND", `There is no project "${projectId}".`);
  const stored = (await summarizeStoreProjects(config, db)).find((project) => project.id === projectId) ?? null;
  const pageSize = options.pageSize ?? DEFAULT_MEMORY_PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil((stored?.memoryCount ?? 0) / pageSize));
  // A page past the end is empty, as the client asked, never the last page again (a client that
  // reads until an empty page would never stop).
  const page = Math.max(1, options.page ?? 1);
  const memories = stored && stored.memoryCount > 0 && page <= pageCount && options.withMemories !== false ? await listReadModelMemories(config, db, projectId, { page, pageSize }) : [];
  return { project: toProjectSummary(row, stored), memories, page, pageSize, pageCount };
}
