import type { Caller } from "../auth/resolve-caller";
import { listVisibleProjectIds, PROJECT_PERMISSIONS, PROJECT_ROLES } from "../auth/permissions";
import type { Db } from "../db/client";
import { readRepoUrls } from "../projects/project-summary";

export type ProposeTarget = { id: string; name: string };

export type ProposeTargets = {
  projects: ProposeTarget[];
  /** The project whose repository this private folder most likely belongs to, or the first. */
  defaultProjectId: string | null;
};

/**
 * The projects the caller may propose to (member and up, admins everywhere), and a default for a
 * private folder. The folder name is the checkout's path with every character other than
 * A–Z, a–z, 0–9 turned into `-` (C1) and cannot be turned back, so the default is only a guess
 * the page lets the person change: the project whose repository name ends the folder's name.
 */
export async function listProposeTargets(db: Db, caller: Caller, folder: string | null): Promise<ProposeTargets> {
  const visible = await listVisibleProjectIds(db, caller);
  const memberships = await db.projectMember.findMany({ where: { userId: caller.userId, projectId: { in: visible } }, select: { projectId: true, role: true } });
  const least = PROJECT_ROLES.indexOf(PROJECT_PERMISSIONS.propose);
  const allowed = new Set(caller.isAdmin ? visible : memberships.filter((row) => PROJECT_ROLES.indexOf(row.role as (typeof PROJECT_ROLES)[number]) >= least).map((row) => row.projectId));
  const rows = await db.project.findMany({ where: { id: { in: [...allowed] } }, select: { id: true, name: true, remoteUrl: true, repoUrls: true }, orderBy: { name: "asc" } });
  const guess = folder ? rows.find((row) => readRepoUrls(row).some((url) => endsWithRepositoryName(folder, url))) : undefined;
  return { projects: rows.map((row) => ({ id: row.id, name: row.name })), defaultProjectId: guess?.id ?? rows[0]?.id ?? null };
}

function endsWithRepositoryName(folder: string, repoUrl: string): boolean {
  const name = repoUrl.split("/").at(-1)?.replace(/[^A-Za-z0-9]/g, "-") ?? "";
  return name !== "" && folder.toLowerCase().endsWith(`-${name.toLowerCase()}`);
}
