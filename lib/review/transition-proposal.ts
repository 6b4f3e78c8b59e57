import type { Proposal } from "../../generated/prisma/client";
import { AppError } from "../errors";
import { assertTransition } from "./proposal-transitions";
import type { ProposalState } from "./proposal-types";
import { contentHash, type Tx } from "./proposal-records";

type ProposalUpdate = Partial<Omit<Proposal, "id" | "state" | "createdAt" | "updatedAt">>;

export type TransitionOptions = {
  proposalId: string;
  from: ProposalState;
  to: ProposalState;
  /** The revision the caller looked at: the move happens only if it is still the current one. */
  revision: number;
  actorId: string | null;
  /** The content of the revision the event is about (after the move). */
  content: string | null;
  reason?: string | null;
  /** Other columns changed with the state; `revision` here moves the proposal to a new revision. */
  data?: ProposalUpdate;
};

/**
 * Moves a proposal from one state to another and appends its event, inside the caller's
 * transaction. Compare-and-swap on state and revision: when another request moved the proposal
 * first, nothing is written and the caller gets CONFLICT.
 */
export async function transitionProposal(tx: Tx, options: TransitionOptions): Promise<void> {
  const { proposalId, from, to, revision, data = {} } = options;
  assertTransition(from, to);
  const { count } = await tx.proposal.updateMany({ where: { id: proposalId, state: from, revision }, data: { ...data, state: to } });
  if (count === 0) {
    throw new AppError("CONFLICT", "The proposal changed while you were acting on it; reload it and try again.", { details: { proposalId } });
  }
  await tx.proposalEvent.create({
    data: {
      proposalId,
      actorId: options.actorId,
      fromState: from,
      toState: to,
      revision: data.revision ?? revision,
      contentHash: contentHash(options.content),
      reason: options.reason ?? null,
    },
  });
}
