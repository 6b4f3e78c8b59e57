import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findProposalOrThrow } from "./proposal-records";
import { transitionProposal } from "./transition-proposal";

export type WithdrawProposalInput = { proposalId: string; actorId: string };

/** The proposer takes their proposal back. Its content stays; it can be reopened. */
export async function withdrawProposal(db: Db, input: WithdrawProposalInput): Promise<void> {
  const { proposal, state, content } = await findProposalOrThrow(db, input.proposalId);
  if (proposal.proposerId !== input.actorId) {
    throw new AppError("FORBIDDEN", "Only the person who proposed it can withdraw a proposal; a reviewer rejects it with a reason instead.");
  }
  await db.$transaction((tx) =>
    transitionProposal(tx, { proposalId: proposal.id, from: state, to: "withdrawn", revision: proposal.revision, actorId: input.actorId, content, data: { approvedRevision: null, approvedById: null } }),
  );
}
