import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureCloneAtRecordedCommit } from "../read-model/ensure-clone-at-recorded-commit";
import { readBlob } from "../store/commit-change";
import { assertNoStoreCaseTwin } from "./assert-no-case-twin";
import { getProposal } from "./get-proposal";
import { loadDuplicateFinder } from "./load-duplicate-finder";
import { AppError } from "../errors";
import { findProposalOrThrow } from "./proposal-records";
import { settleBeforeChange } from "./reconcile-commits";
import { assertTransition } from "./proposal-transitions";
import type { ProposalDetail } from "./proposal-types";
import { runChecks } from "./run-checks";
import { parseStoredChecks, serializeStoredChecks } from "./stored-checks";
import { transitionProposal } from "./transition-proposal";

export type ReopenProposalInput = { proposalId: string; actorId: string };

/**
 * Puts a rejected, withdrawn or failed proposal back in the queue with its content and history
 * intact; the checks run again against today's team memories. A withdrawn one only by its author.
 */
export async function reopenProposal(config: Config, db: Db, input: ReopenProposalInput): Promise<ProposalDetail> {
  // A failed commit whose push did land is committed, not reopened: the store and the database agree.
  if ((await settleBeforeChange(config, db, input.proposalId, input.actorId)).hasLanded) {
    throw new AppError("CONFLICT", "This proposal's commit had reached the team store, so it is committed now; reload it.");
  }
  const { proposal, state, content } = await findProposalOrThrow(db, input.proposalId);
  // A withdrawal is its author's decision: a reviewer putting it back would commit words under
  // the author's name that the author took back (a sync withdraws what the member deleted).
  if (state === "withdrawn" && proposal.proposerId !== input.actorId) {
    throw new AppError("FORBIDDEN", "Its author withdrew this proposal, so only they can reopen it; to take its change into the store, propose it yourself.");
  }
  assertTransition(state, "submitted");
  await ensureCloneAtRecordedCommit(config, db);
  if (content !== null) assertNoStoreCaseTwin(await loadDuplicateFinder(config, db, proposal.projectId), proposal.path);
  const baseContent = proposal.baseBlob ? await readBlob(config, proposal.baseBlob) : null;
  const computed = await runChecks(config, db, { projectId: proposal.projectId, path: proposal.path, content, baseContent, isTeamConventionConfirmed: false });
  const to = computed.checks.secrets.length > 0 ? "blocked_secret" : "submitted";
  const { baseCommit } = parseStoredChecks(proposal.checks);
  await db.$transaction((tx) =>
    transitionProposal(tx, {
      proposalId: proposal.id,
      from: state,
      to,
      revision: proposal.revision,
      actorId: input.actorId,
      content,
      reason: proposal.rejectionReason ? `reopened after: ${proposal.rejectionReason}` : null,
      data: {
        rejectionReason: null,
        approvedRevision: null,
        approvedById: null,
        teamConventionConfirmed: false,
        checks: serializeStoredChecks({ ...computed, baseCommit, conflict: null }),
      },
    }),
  );
  return getProposal(config, db, proposal.id);
}
