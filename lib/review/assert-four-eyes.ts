import type { Db } from "../db/client";
import { AppError } from "../errors";
import { redactSecrets } from "../secrets/redact-secrets";

export type FourEyesInput = { projectId: string; proposerId: string; approverId: string; proposalId: string; revision: number };

/**
 * Four eyes: nobody approves words they wrote — neither the author of a proposal nor a lead who
 * rewrote it (`revise`): her text would otherwise enter every member's memory with no second
 * reader, under the proposer's name. A redaction (secrets replaced, nothing else) adds no words.
 * The one exception is a project with a single lead that turned on `allowSelfApproval` (a
 * one-person team has nobody else to ask). Returns why this approver may not approve, or null.
 * See docs/review.md, "Who may approve".
 */
export async function findFourEyesRefusal(db: Db, input: FourEyesInput): Promise<string | null> {
  const isProposer = input.proposerId === input.approverId;
  if (!isProposer && (await findWordsAuthor(db, input.proposalId, input.revision)) !== input.approverId) return null;
  const [project, otherLeads] = await Promise.all([
    db.project.findUnique({ where: { id: input.projectId }, select: { allowSelfApproval: true } }),
    db.projectMember.findMany({ where: { projectId: input.projectId, role: "lead", userId: { not: input.approverId } }, select: { user: { select: { name: true } } }, take: 3 }),
  ]);
  const what = isProposer ? "this proposal" : "this revision's text";
  if (otherLeads.length > 0) return `You wrote ${what}, so another lead must approve it (${otherLeads.map((lead) => lead.user.name).join(", ")}).`;
  if (!project?.allowSelfApproval) return `You wrote ${what} and are the project's only lead: add a second lead, or turn on self-approval in the project's settings.`;
  return null;
}

/** Who wrote the words of a revision: its author, or, for a redaction of the one before, whoever wrote that one. */
async function findWordsAuthor(db: Db, proposalId: string, revision: number): Promise<string | null> {
  const revisions = await db.proposalRevision.findMany({ where: { proposalId, revision: { lte: revision } }, orderBy: { revision: "desc" }, select: { authorId: true, content: true } });
  for (const [index, current] of revisions.entries()) {
    const previous = revisions[index + 1];
    const isRedaction = previous !== undefined && current.content !== null && previous.content !== null && redactSecrets(previous.content).text === current.content;
    if (!isRedaction) return current.authorId;
  }
  return null;
}

export async function assertFourEyes(db: Db, input: FourEyesInput): Promise<void> {
  const refusal = await findFourEyesRefusal(db, input);
  if (refusal) throw new AppError("FORBIDDEN", refusal, { details: { rule: "four-eyes" } });
}
