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
export async function getProject(config: Config, db: Db, projectId: string, options: { withMemories?: boolean } = {}): Promise<{ project: ProjectSummary; memories: StoreMemory[] }> {
  const row = await db.project.findUnique({ where: { id: projectId }, include: PROJECT_ROW_INCLUDE });
  if (!row) throw new AppError("NOT_FOUND", `There is no project "${projectId}".`);
  const stored = (await summarizeStoreProjects(config, db)).find((project) => project.id === projectId) ?? null;
  const memories = stored && stored.memoryCount > 0 && options.withMemories !== false ? await listReadModelMemories(config, db, projectId) : [];
  return { project: toProjectSummary(row, stored), memories };
}
