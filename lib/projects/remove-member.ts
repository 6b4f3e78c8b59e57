import { assertAnotherLead } from "../auth/manage-users";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { projectAuditEvent, type ProjectActor } from "./project-entry";

export type RemoveMemberOptions = { actor: ProjectActor; projectId: string; userId: string };

/** Takes someone's role in the project away, with a `project.member_removed` audit event naming the role they had. */
export async function removeMember(db: Db, { actor, projectId, userId }: RemoveMemberOptions): Promise<void> {
  const key = { projectId_userId: { projectId, userId } };
  await db.$transaction(async (tx) => {
    const member = await tx.projectMember.findUnique({ where: key, select: { role: true, user: { select: { email: true } } } });
    if (!member) throw new AppError("NOT_FOUND", "That person has no role in this project.");
    await assertAnotherLead(tx, projectId, userId);
    await tx.projectMember.delete({ where: key });
    await tx.auditEvent.create({ data: projectAuditEvent(actor, "project.member_removed", projectId, { userId, email: member.user.email, role: member.role }) });
  });
}
