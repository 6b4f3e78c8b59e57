import { assertAnotherLead } from "../auth/manage-users";
import type { ProjectRole } from "../auth/permissions";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { projectAuditEvent, type ProjectActor } from "./project-entry";

export type SetMemberRoleOptions = { actor: ProjectActor; projectId: string; email: string; role: ProjectRole };

/**
 * Gives an existing account a role in the project, or changes it, with the audit event that says
 * who did it (`project.member_added`, `project.member_role_changed` with the old and new role).
 * The same role again changes nothing and records nothing.
 */
export async function setMemberRole(db: Db, { actor, projectId, email, role }: SetMemberRoleOptions): Promise<void> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true } });
  if (!user) throw new AppError("NOT_FOUND", `There is no account for ${email}; an admin creates it first.`);
  const key = { projectId_userId: { projectId, userId: user.id } };
  await db.$transaction(async (tx) => {
    const before = await tx.projectMember.findUnique({ where: key, select: { role: true } });
    if (before?.role === role) return;
    if (role !== "lead") await assertAnotherLead(tx, projectId, user.id);
    await tx.projectMember.upsert({ where: key, create: { projectId, userId: user.id, role }, update: { role } });
    const member = { userId: user.id, email: user.email };
    const event = before
      ? projectAuditEvent(actor, "project.member_role_changed", projectId, { ...member, from: before.role, to: role })
      : projectAuditEvent(actor, "project.member_added", projectId, { ...member, role });
    await tx.auditEvent.create({ data: event });
  });
}
