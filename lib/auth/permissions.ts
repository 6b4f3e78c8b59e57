import { directReadsOf, type Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import type { Caller } from "./resolve-caller";

export const PROJECT_ROLES = ["viewer", "member", "lead"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** What a caller wants to do in a project, and the least role that may. */
export const PROJECT_PERMISSIONS = {
  read: "viewer", // browse team memory
  propose: "member", // propose memories, run recall, sync: acts as a member of the team
  review: "lead", // approve, reject, edit proposals
  manage: "lead", // add and remove members, change the project's settings
  oversee: "lead", // read the recall log and the members' syncs
} as const satisfies Record<string, ProjectRole>;
export type ProjectPermission = keyof typeof PROJECT_PERMISSIONS;

/**
 * What an admin may do in a project where they hold no role (README's role table): manage it and
 * read all of it, the lead's read views included. Proposing, recall and sync act as a member of
 * the team (a proposal with no proposer role, a recall or sync logged as a member's), and review
 * is the leads': those need the role.
 */
const ADMIN_PERMISSIONS: ReadonlySet<ProjectPermission> = new Set(["read", "manage", "oversee"]);

export function isProjectRole(value: unknown): value is ProjectRole {
  return typeof value === "string" && (PROJECT_ROLES as readonly string[]).includes(value);
}

function rank(role: ProjectRole): number {
  return PROJECT_ROLES.indexOf(role);
}

/**
 * Throws unless the caller may do `permission` in the project. Someone with no role there (or a
 * token not scoped to it) gets NOT_FOUND, never FORBIDDEN: existence is not revealed. Admins
 * read, oversee and manage every project, but propose and review only with a role that may.
 */
export async function assertProjectPermission(db: Db, caller: Caller, projectId: string, permission: ProjectPermission): Promise<ProjectRole | "admin"> {
  // Made only when thrown: an error's stack trace costs more than the rest of an allowed check.
  const notFound = () => new AppError("NOT_FOUND", `There is no project "${projectId}" that you can see.`);
  if (caller.tokenProjectIds && !caller.tokenProjectIds.includes(projectId)) throw notFound();
  // Every project request makes this read: on the driver (lib/db/direct-reads.ts).
  const membership = await directReadsOf(db).one<{ role: string }>(`SELECT "role" FROM "ProjectMember" WHERE "projectId" = ? AND "userId" = ?`, [projectId, caller.userId]);
  const role = membership && isProjectRole(membership.role) ? membership.role : null;

  if (role && rank(role) >= rank(PROJECT_PERMISSIONS[permission])) return role;
  if (caller.isAdmin) {
    if (!(await db.project.findUnique({ where: { id: projectId }, select: { id: true } }))) throw notFound();
    if (ADMIN_PERMISSIONS.has(permission)) return "admin";
    if (permission === "review") throw new AppError("FORBIDDEN", `Admins review only in projects where they are lead; ask a lead of ${projectId}.`);
    throw new AppError("FORBIDDEN", `Admins propose, recall and sync only in projects where they are a member: give your account the member role in ${projectId} first.`);
  }
  if (!role) throw notFound();
  throw new AppError("FORBIDDEN", `Your role in ${projectId} is ${role}; this needs ${PROJECT_PERMISSIONS[permission]}.`);
}

/**
 * Whether the caller may do `permission` in the project, by the same rule as
 * assertProjectPermission: for pages, which show an action only to whom the API will allow it.
 */
export async function hasProjectPermission(db: Db, caller: Caller, projectId: string, permission: ProjectPermission): Promise<boolean> {
  try {
    await assertProjectPermission(db, caller, projectId, permission);
    return true;
  } catch (error) {
    if (isAppError(error) && (error.code === "FORBIDDEN" || error.code === "NOT_FOUND")) return false;
    throw error;
  }
}

export function assertAdmin(caller: Caller): void {
  if (!caller.isAdmin) throw new AppError("FORBIDDEN", "Only an admin can do this.");
}

/**
 * The projects a caller may see: all for admins, else those with a role (and in the token's
 * scope). Archived projects are left out unless `includeArchived`: they leave every list and
 * picker, while their pages and history stay reachable by id.
 */
export async function listVisibleProjectIds(db: Db, caller: Caller, options: { includeArchived?: boolean } = {}): Promise<string[]> {
  const active = options.includeArchived ? {} : { archivedAt: null };
  const ids = caller.isAdmin
    ? (await db.project.findMany({ where: active, select: { id: true } })).map((project) => project.id)
    : (await db.projectMember.findMany({ where: { userId: caller.userId, project: active }, select: { projectId: true } })).map((row) => row.projectId);
  return caller.tokenProjectIds ? ids.filter((id) => caller.tokenProjectIds!.includes(id)) : ids;
}
