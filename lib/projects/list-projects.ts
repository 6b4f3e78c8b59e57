import { listVisibleProjectIds } from "../auth/permissions";
import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { summarizeStoreProjects } from "../read-model/summarize-store-projects";
import { PROJECT_ROW_INCLUDE, toProjectSummary, type ProjectSummary } from "./project-summary";

export type ListProjectsOptions = { config: Config; db: Db; caller: Caller; includeArchived?: boolean };

/**
 * The projects a caller may see, by name, with memory counts from the store. A project the
 * database knows but the store does not list yet (no commit made it) is shown with zero
 * memories rather than hidden. Archived ones only when asked (admins' Archived section).
 */
export async function listProjects({ config, db, caller, includeArchived = false }: ListProjectsOptions): Promise<ProjectSummary[]> {
  const ids = await listVisibleProjectIds(db, caller, { includeArchived });
  const [rows, stored] = await Promise.all([
    db.project.findMany({ where: { id: { in: ids } }, include: PROJECT_ROW_INCLUDE, orderBy: { name: "asc" } }),
    summarizeStoreProjects(config, db),
  ]);
  const storedById = new Map(stored.map((project) => [project.id, project]));
  return rows.map((row) => toProjectSummary(row, storedById.get(row.id) ?? null));
}
