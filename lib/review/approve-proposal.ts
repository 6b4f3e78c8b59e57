import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureCloneAtRecordedCommit } from "../read-model/ensure-clone-at-recorded-commit";
import { AppError, isAppError } from "../errors";
import { maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import { isCommitOnMain, readBlob } from "../store/commit-change";
import type { ComputedChecks } from "./compute-checks";
import { assertFourEyes } from "./assert-four-eyes";
import { assertNoStoreCaseTwin } from "./assert-no-case-twin";
import { commitApprovedProposal, withCommitClaim } from "./commit-approved-proposal";
import { getProposal } from "./get-proposal";
import { findProposalOrThrow, findUserOrThrow, type FoundProposal, type ProposalRow } from "./proposal-records";
import { assertTransition } from "./proposal-transitions";
import type { ProposalDetail, ProposalPerson, ProposalState } from "./proposal-types";
import { finishApproved, finishOrphanedApprovals } from "./reconcile-commits";
import { loadDuplicateFinder } from "./load-duplicate-finder";
import { isCleanForBulkApproval } from "./review-attention";
import { saveDuplicateChecks } from "./refresh-duplicate-checks";
import { runChecks, type CheckedAt } from "./run-checks";
import { parseStoredChecks, serializeStoredChecks } from "./stored-checks";
import { transitionProposal } from "./transition-proposal";

export type ApproveProposalInput = {
  proposalId: string;
  approverId: string;
  /** The revision the reviewer looked at: an approval is bound to exactly that content. */
  revision: number;
  /** T2: the reviewer confirms a feedback memory is a team convention. */
  confirmTeamConvention?: boolean;
  /** Bulk approval: refuse anything that needs a reviewer's judgement (a duplicate, a confirmation). */
  requireClean?: boolean;
};

/**
 * Approves one revision and commits it to the store. The checks run again first (the team's
 * memories may have changed since submit); the resulting state is committed, conflicted,
 * blocked_secret or commit_failed, never left at approved. Approving a proposal still `approved`
 * whose server stopped mid-commit retries it (docs/store.md step 9); while the store cannot be
 * reached the answer is always commit_failed, and approving again later retries.
 */
export async function approveProposal(config: Config, db: Db, input: ApproveProposalInput): Promise<ProposalDetail> {
  const approver = await findUserOrThrow(db, input.approverId, "approver");
  const found = await findProposalOrThrow(db, input.proposalId);
  const { proposal, state } = found;
  if (proposal.revision !== input.revision) {
    throw new AppError("CONFLICT", `The proposal changed since you looked; review revision ${proposal.revision}.`, { details: { revision: proposal.revision } });
  }
  if (state !== "approved") assertApprovable(state, proposal);
  await assertFourEyes(db, { projectId: proposal.projectId, proposerId: proposal.proposerId, approverId: input.approverId, proposalId: proposal.id, revision: proposal.revision });
  // The claim says "this server is committing it" from the approval to the recorded outcome; an
  // approved proposal nobody claims is one whose server stopped, and approving it again retries.
  await withCommitClaim(db, proposal.id, async () => {
    if (state === "approved") {
      await finishApproved(config, db, proposal.id, input.approverId);
      return;
    }
    if (state === "commit_failed" && (await landedBeforeFailure(config, proposal))) {
      await markLanded(db, proposal, (await findProposalOrThrow(db, proposal.id)).content, input.approverId);
      return;
    }
    await approveAndCommit(config, db, input, found, approver);
  });
  // Any instance finishes what a stopped one left approved, not only the one that restarts.
  await finishOrphanedApprovals(config, db);
  return getProposal(config, db, proposal.id);
}

// The proposal as read before the claim: every move below is a compare-and-swap on its state
// and revision (transitionProposal), so a change made meanwhile elsewhere ends in CONFLICT.
async function approveAndCommit(config: Config, db: Db, input: ApproveProposalInput, found: FoundProposal, approver: ProposalPerson): Promise<void> {
  const { proposal, state, content } = found;
  // Reads serve the last known store when it cannot be reached; the commit then fails as
  // commit_failed, the one answer an approval gives while the store is unreachable.
  await ensureCloneAtRecordedCommit(config, db);
  if (content !== null) assertNoStoreCaseTwin(await loadDuplicateFinder(config, db, proposal.projectId), proposal.path);
  const isConfirmed = proposal.teamConventionConfirmed || input.confirmTeamConvention === true;
  const baseContent = proposal.baseBlob ? await readBlob(config, proposal.baseBlob) : null;
  // The stored checks are those of this revision's content (a revision runs them again).
  const stored = parseStoredChecks(proposal.checks);
  const previous = stored.checkedCommit ? { checkedCommit: stored.checkedCommit, duplicates: stored.checks.duplicates } : undefined;
  const computed = await runChecks(config, db, { projectId: proposal.projectId, path: proposal.path, content, baseContent, isTeamConventionConfirmed: isConfirmed, previous });
  assertChecksAllowApproval(computed);
  await assertNoUnseenDuplicate(db, proposal, computed);
  if (input.requireClean && !isCleanForBulkApproval(computed.checks)) {
    throw new AppError("CONFLICT", "This proposal needs a look of its own (a possible duplicate or a scope question); approve it from its page.");
  }

  const approved = {
    approvedRevision: input.revision,
    approvedById: input.approverId,
    teamConventionConfirmed: isConfirmed,
    intendedCommit: null,
    checks: serializeStoredChecks({ ...computed, baseCommit: stored.baseCommit, conflict: null }),
  };
  await db.$transaction((tx) =>
    transitionProposal(tx, {
      proposalId: proposal.id,
      from: state,
      to: "approved",
      revision: input.revision,
      actorId: input.approverId,
      content,
      reason: isConfirmed && computed.type === "feedback" ? "confirmed as a team convention" : null,
      data: approved,
    }),
  );
  // What was just written, handed on rather than read back.
  await commitApprovedProposal(config, db, { proposalId: proposal.id, actorId: input.approverId, known: { proposal: { ...proposal, ...approved, state: "approved" }, content, approver } });
}

/**
 * A near-duplicate is not a blocker, but it must not be approved unseen: one that entered the
 * store after the checks the proposal's page, the API and the queue last showed (a copy approved
 * meanwhile) stops the approval. The list is saved first, so the page now shows it, the queue no
 * longer counts the proposal as clean, and approving again after a look (or superseding that
 * memory, or rejecting) goes ahead.
 */
async function assertNoUnseenDuplicate(db: Db, proposal: ProposalRow, computed: CheckedAt): Promise<void> {
  const shown = new Set(parseStoredChecks(proposal.checks).checks.duplicates.map((duplicate) => duplicate.path));
  const unseen = computed.checks.duplicates.filter((duplicate) => !shown.has(duplicate.path));
  if (unseen.length === 0) return;
  await saveDuplicateChecks(db, proposal, computed.checks.duplicates, computed.checkedCommit);
  // A store file's name and title come from whoever wrote it (a push from outside teammem too).
  const named = maskSecretsForDisplay(unseen.map((duplicate) => `${duplicate.path}${duplicate.name ? ` ("${duplicate.name}")` : ""}, similarity ${duplicate.similarity.toFixed(2)}`).join("; "));
  throw new AppError(
    "CONFLICT",
    `Since this proposal's checks were shown, the team store gained ${unseen.length === 1 ? "a possible duplicate of it" : `${unseen.length} possible duplicates of it`}: ${named}. Look at the proposal again: supersede that memory, reject the proposal, or approve it again to keep both.`,
  );
}

function assertApprovable(state: ProposalState, proposal: ProposalRow): void {
  if (state === "blocked_secret") {
    throw new AppError("SECRET_FOUND", "This proposal contains a secret and cannot be approved; apply the redaction or edit it out first.");
  }
  if (state === "committed") throw new AppError("CONFLICT", `This proposal is already in the store (commit ${proposal.committedCommit ?? "unknown"}).`);
  if (state === "conflicted") throw new AppError("CONFLICT", "The store's file changed in a way that conflicts with this proposal; edit it to resolve the conflict, then approve the new revision.");
  assertTransition(state, "approved");
}

/**
 * The order says what to fix first: a secret, then scope, then the format; but a memory whose
 * type is missing or broken hears about its format first, since no confirmation makes it valid.
 */
function assertChecksAllowApproval({ checks, type }: ComputedChecks): void {
  if (checks.secrets.length > 0) {
    throw new AppError("SECRET_FOUND", "This proposal contains a secret and cannot be approved; apply the redaction or edit it out first.", { details: { findings: checks.secrets } });
  }
  if (checks.scope.verdict === "private-only") {
    throw new AppError("FORBIDDEN", "This is a user memory: it stays personal, in the proposer's private memory, and cannot enter the team store.");
  }
  const errors = checks.lint.filter((finding) => finding.severity === "error");
  if (checks.scope.verdict === "needs-confirmation" && !(type === null && errors.length > 0)) {
    const why = type === "feedback" ? "Feedback enters the team store only as a team convention" : "This memory has no type, so its scope is unknown";
    throw new AppError("INVALID_INPUT", `${why}: confirm that it applies to everyone (confirmTeamConvention), or reject it.`, {
      details: { field: "confirmTeamConvention" },
    });
  }
  if (errors.length > 0) {
    throw new AppError("INVALID_MEMORY", `The memory has ${errors.length === 1 ? "a format error" : `${errors.length} format errors`} (${errors.map((error) => error.message).join(" ")}); edit it before approving.`, {
      details: { findings: errors },
    });
  }
}

// A failed push may still have reached the remote (the network broke after the server took it).
// When the store cannot be asked, the retry goes ahead: its commit either fails the same way
// (commit_failed again) or, once the store answers, finds the content there (unchanged).
async function landedBeforeFailure(config: Config, proposal: ProposalRow): Promise<boolean> {
  if (!proposal.intendedCommit) return false;
  try {
    return await isCommitOnMain(config, proposal.intendedCommit);
  } catch (error) {
    if (isAppError(error) && error.code === "STORE_UNAVAILABLE") return false;
    throw error;
  }
}

async function markLanded(db: Db, proposal: ProposalRow, content: string | null, actorId: string): Promise<void> {
  await db.$transaction((tx) =>
    transitionProposal(tx, {
      proposalId: proposal.id,
      from: "commit_failed",
      to: "committed",
      revision: proposal.revision,
      actorId,
      content,
      reason: `the earlier push did land: commit ${proposal.intendedCommit}`,
      data: { committedCommit: proposal.intendedCommit },
    }),
  );
}
