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
  const wordsAuthor = await findWordsAuthor(db, input.proposalId, input.revision);
  if (!isProposer && wordsAuthor !== input.approverId) return null;
  // The leads named as the way forward are those who may approve: not the proposer, not the reviser.
  const writers = [...new Set([input.proposerId, wordsAuthor].filter((id): id is string => id !== null))];
  const [project, leads] = await Promise.all([
    db.project.findUnique({ where: { id: input.projectId }, select: { allowSelfApproval: true } }),
    db.projectMember.findMany({ where: { projectId: input.projectId, role: "lead" }, select: { userId: true, user: { select: { name: true } } } }),
  ]);
  const what = isProposer ? "this proposal" : "this revision's text";
  const others = leads.filter((lead) => lead.userId !== input.approverId);
  const mayApprove = others.filter((lead) => !writers.includes(lead.userId));
  if (mayApprove.length > 0) return `You wrote ${what}, so another lead must approve it (${mayApprove.slice(0, 3).map((lead) => lead.user.name).join(", ")}).`;
  if (others.length > 0) {
    const coWriters = others.map((lead) => lead.user.name).join(", ");
    return `You wrote ${what} and ${coWriters} wrote the rest, so no lead of the project may approve it: add a lead who did not write it, or reject it.`;
  }
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
