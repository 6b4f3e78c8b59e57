import { hasProjectPermission, listVisibleProjectIds } from "../auth/permissions";
import type { Caller } from "../auth/resolve-caller";
import type { Db } from "../db/client";

export type OverseenProject = { projectId: string; projectName: string };

/**
 * The projects whose recall log the caller may read, by the rule of
 * GET /api/projects/:id/recall-events ("oversee"): those she leads, and every project for an admin.
 */
export async function listOverseenProjects(db: Db, caller: Caller): Promise<OverseenProject[]> {
  const visible = await listVisibleProjectIds(db, caller);
  const mayOversee = await Promise.all(visible.map((projectId) => hasProjectPermission(db, caller, projectId, "oversee")));
  const ids = visible.filter((_, index) => mayOversee[index]);
  if (ids.length === 0) return [];
  const projects = await db.project.findMany({ where: { id: { in: ids } }, select: { id: true, name: true }, orderBy: { id: "asc" } });
  return projects.map((project) => ({ projectId: project.id, projectName: project.name }));
}
