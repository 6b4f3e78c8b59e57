import type { Config } from "../config";
import type { Db } from "../db/client";
import { OPEN_PROPOSAL_STATES } from "../review/proposal-types";
import { withdrawProposal } from "../review/withdraw-proposal";

export type CancelSyncSubmissionInput = { projectId: string; userId: string; idempotencyKey: string };

/** What the key had made: nothing (the submission never arrived), or the proposal and its state now. */
export type CancelledSubmission = { proposalId: string | null; state: string | null };

/**
 * A change `teammem sync` queued and then no longer wants (the file put back, or a new file
 * deleted) whose submission may have arrived although its answer was lost: the proposal the key
 * made, if any, is withdrawn, as the member's own withdraw would. A key that made nothing is
 * answered as such and left alone: its client drops it and never sends it again.
 */
export async function cancelSyncSubmission(config: Config, db: Db, input: CancelSyncSubmissionInput): Promise<CancelledSubmission> {
  const claim = await db.syncSubmission.findUnique({ where: { projectId_userId_idempotencyKey: input } });
  if (!claim?.proposalId) return { proposalId: null, state: null };
  const before = await db.proposal.findUnique({ where: { id: claim.proposalId }, select: { state: true } });
  // Withdrawal settles with the store first: a proposal whose commit landed answers CONFLICT.
  if (before && (OPEN_PROPOSAL_STATES as readonly string[]).includes(before.state)) await withdrawProposal(config, db, { proposalId: claim.proposalId, actorId: input.userId });
  const after = await db.proposal.findUnique({ where: { id: claim.proposalId }, select: { state: true } });
  return { proposalId: claim.proposalId, state: after?.state ?? null };
}
