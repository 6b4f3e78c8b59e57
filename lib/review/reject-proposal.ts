import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { assertNoSecret } from "../secrets/assert-no-secret";
import { findProposalOrThrow } from "./proposal-records";
import { settleBeforeChange } from "./reconcile-commits";
import { transitionProposal } from "./transition-proposal";
import { assertNoBidiControl } from "./assert-no-bidi-control";

export type RejectProposalInput = { proposalId: string; actorId: string; reason: string };

const MAX_REASON_LENGTH = 2_000;

/**
 * Closes a proposal with the reviewer's reason. Its content stays; it can be reopened. A proposal
 * that may already be in the store (commit_failed after a push, or approved with its server gone)
 * is first settled with the store, so a memory that landed is never marked rejected.
 */
export async function rejectProposal(config: Config, db: Db, input: RejectProposalInput): Promise<void> {
  const reason = input.reason.trim();
  if (reason === "") throw new AppError("INVALID_INPUT", "reason: say why the proposal is rejected; the proposer sees it.", { details: { field: "reason" } });
  if (reason.length > MAX_REASON_LENGTH) throw new AppError("INVALID_INPUT", `reason: at most ${MAX_REASON_LENGTH} characters.`, { details: { field: "reason" } });
  assertNoSecret(reason, "reason");
  assertNoBidiControl(reason, "reason");
  if ((await settleBeforeChange(config, db, input.proposalId, input.actorId)).hasLanded) {
    throw new AppError("CONFLICT", "This proposal's commit had reached the team store, so it is committed now; to take the memory out, propose retiring it.");
  }
  const { proposal, state, content } = await findProposalOrThrow(db, input.proposalId);
  await db.$transaction((tx) =>
    transitionProposal(tx, {
      proposalId: proposal.id,
      from: state,
      to: "rejected",
      revision: proposal.revision,
      actorId: input.actorId,
      content,
      reason,
      data: { rejectionReason: reason, approvedRevision: null, approvedById: null },
    }),
  );
}
