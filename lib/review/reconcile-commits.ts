import type { Config } from "../config";
import { directReadsOf, type Db } from "../db/client";
import { asDate } from "../db/direct-reads";
import { AppError, isAppError } from "../errors";
import { log } from "../log";
import { isCommitOnMain, STORE_LOCK_NAME } from "../store/commit-change";
import { withStoreLock } from "../store/store-lock";
import { commitApprovedProposal, withCommitClaim } from "./commit-approved-proposal";
import { findProposalOrThrow, type ProposalRow } from "./proposal-records";
import type { ProposalState } from "./proposal-types";
import { transitionProposal } from "./transition-proposal";

/**
 * After a crash or restart, and for approvals whose worker is gone: every proposal still at
 * "approved" whose commit claim nobody holds either landed (its intended commit is on main: mark
 * it committed, once) or did not (commit it again; the store sees the same content and merges or
 * reports it unchanged, so nothing is written twice). Proposals a live worker holds are left to
 * it. Returns how many proposals became committed.
 */
export async function reconcileCommits(config: Config, db: Db, options: { olderThanMs?: number } = {}): Promise<number> {
  const pending = await findApprovedProposals(db, options.olderThanMs);
  // No fetch up front: proposals a live server claims need none, and each settled one asks the
  // store itself (isCommitOnMain, or the commit's own fetch).
  let committed = 0;
  for (const { id } of pending) {
    try {
      if ((await withCommitClaim(db, id, () => finishApproved(config, db, id, null))) === "committed") committed++;
    } catch (error) {
      // CONFLICT: a live worker holds it, or it moved meanwhile; anything else was recorded on
      // the proposal as commit_failed with a safe message. The others still get their turn.
      if (!isAppError(error)) throw error;
    }
  }
  return committed;
}

// Asked after every approval and on a timer (finishOrphanedApprovals): on the driver, and the age is compared
// here, since the two databases keep dates differently. Approved proposals are few: those in flight.
async function findApprovedProposals(db: Db, olderThanMs: number | undefined): Promise<{ id: string }[]> {
  const rows = await directReadsOf(db).all<{ id: string; updatedAt: unknown }>(`SELECT "id", "updatedAt" FROM "Proposal" WHERE "state" = ?`, ["approved"]);
  const cutoff = olderThanMs === undefined ? Infinity : Date.now() - olderThanMs;
  return rows
    .map((row) => ({ id: row.id, updatedAt: asDate(row.updatedAt)?.getTime() ?? 0 }))
    .filter((row) => row.updatedAt < cutoff)
    .sort((a, b) => a.updatedAt - b.updatedAt)
    .map(({ id }) => ({ id }));
}

// Longer than a commit claim's lease: a younger approval is most likely still in its server's hands.
const ORPHAN_AGE_MS = 10_000;

/**
 * Finishes approvals other servers left behind (step 9), as a by-product of this server's own
 * work: one query when there are none. Never fails the caller; a failure is logged and the next
 * call, or a restart, tries again.
 */
export async function finishOrphanedApprovals(config: Config, db: Db): Promise<void> {
  try {
    await reconcileCommits(config, db, { olderThanMs: ORPHAN_AGE_MS });
  } catch (error) {
    log("warn", "reconcile.orphans_failed", { error: isAppError(error) ? error.code : "unknown" });
  }
}

/**
 * Without waiting for anyone's next approval: every `intervalMs` this server finishes approvals
 * a stopped server left behind (one query when there are none). Sweeps never overlap; the timer
 * never keeps a process alive. Returns a function that stops it.
 */
export function startOrphanedApprovalSweep(config: Config, db: Db, intervalMs = ORPHAN_AGE_MS): () => void {
  let isRunning = false;
  const timer = setInterval(() => {
    if (isRunning) return;
    isRunning = true;
    void finishOrphanedApprovals(config, db).finally(() => (isRunning = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The lead's retry of an approval whose worker is gone: finishes it (marks it committed when its
 * commit landed, else commits it again). The caller holds the proposal's commit claim.
 */
export async function finishApproved(config: Config, db: Db, proposalId: string, actorId: string | null): Promise<ProposalState> {
  const { proposal, state, content } = await findProposalOrThrow(db, proposalId);
  if (state !== "approved") return state; // another instance got there first
  if (proposal.intendedCommit && (await isCommitOnMain(config, proposal.intendedCommit))) {
    await markLanded(db, proposal, content, "approved", actorId);
    return "committed";
  }
  await commitApprovedProposal(config, db, { proposalId, actorId });
  return (await findProposalOrThrow(db, proposalId)).state;
}

/**
 * Makes the database agree with the store before a person changes a proposal that may have
 * reached it (docs/store.md step 9): an `approved` proposal whose worker is gone, or a
 * `commit_failed` one with an intended commit. A commit that landed makes it `committed`; an
 * orphaned approval that did not land becomes `commit_failed` (nothing will push it any more).
 * Answers whether settling found the commit in the store (the proposal is now committed); throws
 * STORE_UNAVAILABLE when the store cannot be asked, and CONFLICT while a live worker is still
 * committing it.
 */
export async function settleBeforeChange(config: Config | (() => Config), db: Db, proposalId: string, actorId: string | null): Promise<{ hasLanded: boolean }> {
  const { proposal, state } = await findProposalOrThrow(db, proposalId);
  const needsStore = state === "approved" || (state === "commit_failed" && proposal.intendedCommit !== null);
  if (!needsStore) return { hasLanded: false };
  const storeConfig = typeof config === "function" ? config() : config;
  const settle = () => settleUnderStoreLock(storeConfig, db, proposalId, actorId);
  const after = state === "approved" ? await withCommitClaim(db, proposalId, settle) : await settle();
  return { hasLanded: after === "committed" };
}

// Under the store lease, so no push of this proposal can be under way while it is decided.
async function settleUnderStoreLock(config: Config, db: Db, proposalId: string, actorId: string | null): Promise<ProposalState> {
  return withStoreLock(db, STORE_LOCK_NAME, async () => {
    const { proposal, state, content } = await findProposalOrThrow(db, proposalId);
    if (state !== "approved" && state !== "commit_failed") return state;
    const hasLanded = proposal.intendedCommit !== null && (await isCommitOnMain(config, proposal.intendedCommit));
    if (hasLanded) {
      await markLanded(db, proposal, content, state, actorId);
      return "committed";
    }
    if (state === "approved") {
      await transition(db, proposal, content, actorId, {
        from: "approved",
        to: "commit_failed",
        reason: "the server that was committing it stopped before its commit reached the store; nothing was pushed",
      });
      return "commit_failed";
    }
    return state;
  });
}

async function markLanded(db: Db, proposal: ProposalRow, content: string | null, from: "approved" | "commit_failed", actorId: string | null): Promise<void> {
  await transition(db, proposal, content, actorId, {
    from,
    to: "committed",
    reason: `reconciled with the store: commit ${proposal.intendedCommit} is on main`,
    data: { committedCommit: proposal.intendedCommit },
  });
}

type Move = { from: ProposalState; to: ProposalState; reason: string; data?: Parameters<typeof transitionProposal>[1]["data"] };

async function transition(db: Db, proposal: ProposalRow, content: string | null, actorId: string | null, move: Move): Promise<void> {
  try {
    await db.$transaction((tx) =>
      transitionProposal(tx, { proposalId: proposal.id, ...move, revision: proposal.revision, actorId, content }),
    );
  } catch (error) {
    if (isAppError(error) && error.code === "CONFLICT") {
      throw new AppError("CONFLICT", "Another teammem server settled this proposal at the same moment; reload it to see where it stands.");
    }
    throw error;
  }
}
