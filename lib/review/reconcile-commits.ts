import type { Config } from "../config";
import type { Db } from "../db/client";
import { isAppError } from "../errors";
import { isCommitOnMain } from "../store/commit-change";
import { refreshStore } from "../store/read-store";
import { commitApprovedProposal } from "./commit-approved-proposal";
import { findProposalOrThrow } from "./proposal-records";
import { transitionProposal } from "./transition-proposal";

/**
 * After a crash or restart: every proposal still at "approved" either landed (its intended
 * commit is on main: mark it committed, once) or did not (commit it again; the store sees the
 * same content and merges or reports it unchanged, so nothing is written twice). Returns how many
 * proposals became committed.
 */
export async function reconcileCommits(config: Config, db: Db): Promise<number> {
  const pending = await db.proposal.findMany({ where: { state: "approved" }, orderBy: { updatedAt: "asc" }, select: { id: true } });
  if (pending.length === 0) return 0;
  await refreshStore(config, { force: true });
  let committed = 0;
  for (const { id } of pending) {
    if (await reconcileOne(config, db, id)) committed++;
  }
  return committed;
}

async function reconcileOne(config: Config, db: Db, proposalId: string): Promise<boolean> {
  const { proposal, state, content } = await findProposalOrThrow(db, proposalId);
  if (state !== "approved") return false; // another instance got there first
  if (proposal.intendedCommit && (await isCommitOnMain(config, proposal.intendedCommit))) {
    try {
      await db.$transaction((tx) =>
        transitionProposal(tx, {
          proposalId,
          from: "approved",
          to: "committed",
          revision: proposal.revision,
          actorId: null,
          content,
          reason: `reconciled: commit ${proposal.intendedCommit} is on main`,
          data: { committedCommit: proposal.intendedCommit },
        }),
      );
      return true;
    } catch (error) {
      if (isAppError(error) && error.code === "CONFLICT") return false; // reconciled elsewhere meanwhile
      throw error;
    }
  }
  try {
    await commitApprovedProposal(config, db, { proposalId, actorId: null });
  } catch (error) {
    // Recorded on the proposal as commit_failed with a safe message; the others still get their turn.
    if (isAppError(error)) return false;
    throw error;
  }
  return (await db.proposal.findUnique({ where: { id: proposalId }, select: { state: true } }))?.state === "committed";
}
