import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findProposalOrThrow } from "./proposal-records";
import { settleBeforeChange } from "./reconcile-commits";
import { transitionProposal } from "./transition-proposal";

export type WithdrawProposalInput = { proposalId: string; actorId: string };

/**
 * The proposer takes their proposal back. Its content stays; it can be reopened. A proposal that
 * may already be in the store is settled with the store first (docs/store.md step 10), so the
 * store and the database never disagree.
 */
export async function withdrawProposal(config: Config, db: Db, input: WithdrawProposalInput): Promise<void> {
  const found = await findProposalOrThrow(db, input.proposalId);
  if (found.proposal.proposerId !== input.actorId) {
    throw new AppError("FORBIDDEN", "Only the person who proposed it can withdraw a proposal; a reviewer rejects it with a reason instead.");
  }
  if ((await settleBeforeChange(config, db, input.proposalId, input.actorId)).hasLanded) {
    throw new AppError("CONFLICT", "This proposal's commit had reached the team store, so it is committed now; to take the memory out, propose retiring it.");
  }
  const { proposal, state, content } = await findProposalOrThrow(db, input.proposalId);
  await db.$transaction((tx) =>
    transitionProposal(tx, { proposalId: proposal.id, from: state, to: "withdrawn", revision: proposal.revision, actorId: input.actorId, content, data: { approvedRevision: null, approvedById: null } }),
  );
}
