import type { Db } from "@/lib/db/client";
import { findFourEyesRefusal } from "@/lib/review/assert-four-eyes";
import type { ProposalSummary } from "@/lib/review/proposal-types";
import { isCleanForBulkApproval } from "@/lib/review/review-attention";

export type SelectBulkApprovableOptions = { db: Db; approverId: string; ledProjectIds: ReadonlySet<string>; proposals: ProposalSummary[] };

/**
 * What "Approve all clean" offers this lead: open proposals in a project she leads with nothing
 * needing judgement (a blocker, a duplicate, a scope question) and that the server's four-eyes
 * rule lets her approve. A proposal she wrote or rewrote is left out: the bulk route would refuse
 * it, and offering it again on every visit only to refuse it is a trap.
 */
export async function selectBulkApprovable({ db, approverId, ledProjectIds, proposals }: SelectBulkApprovableOptions): Promise<ProposalSummary[]> {
  const clean = proposals.filter(
    (proposal) => ledProjectIds.has(proposal.projectId) && (proposal.state === "submitted" || proposal.state === "in_review") && isCleanForBulkApproval(proposal.checks),
  );
  const refusals = await Promise.all(
    clean.map((proposal) => findFourEyesRefusal(db, { projectId: proposal.projectId, proposerId: proposal.proposer.id, approverId, proposalId: proposal.id, revision: proposal.revision })),
  );
  return clean.filter((_, index) => refusals[index] === null);
}
