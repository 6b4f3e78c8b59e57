import type { Db } from "../db/client";
import { AppError } from "../errors";

export type FourEyesInput = { projectId: string; proposerId: string; approverId: string };

/**
 * Four eyes: the author of a proposal does not approve it. The one exception is a project with a
 * single lead that turned on `allowSelfApproval` (a one-person team has nobody else to ask).
 * Returns why this approver may not approve, or null. See docs/review.md, "Who may approve".
 */
export async function findFourEyesRefusal(db: Db, input: FourEyesInput): Promise<string | null> {
  if (input.proposerId !== input.approverId) return null;
  const [project, otherLeads] = await Promise.all([
    db.project.findUnique({ where: { id: input.projectId }, select: { allowSelfApproval: true } }),
    db.projectMember.findMany({ where: { projectId: input.projectId, role: "lead", userId: { not: input.approverId } }, select: { user: { select: { name: true } } }, take: 3 }),
  ]);
  if (otherLeads.length > 0) return `You wrote this proposal, so another lead must approve it (${otherLeads.map((lead) => lead.user.name).join(", ")}).`;
  if (!project?.allowSelfApproval) return "You wrote this proposal and are the project's only lead: add a second lead, or turn on self-approval in the project's settings.";
  return null;
}

export async function assertFourEyes(db: Db, input: FourEyesInput): Promise<void> {
  const refusal = await findFourEyesRefusal(db, input);
  if (refusal) throw new AppError("FORBIDDEN", refusal, { details: { rule: "four-eyes" } });
}
