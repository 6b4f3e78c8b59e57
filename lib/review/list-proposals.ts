import type { Db } from "../db/client";
import { maskProposalSummary } from "./mask-proposal";
import { isCleanForBulkApproval } from "./review-attention";
import { loadPeople } from "./proposal-records";
import type { ProposalSource, ProposalState, ProposalSummary } from "./proposal-types";
import { toProposalSummary } from "./to-proposal-summary";

export type ProposalFilter = {
  projectIds: string[];
  states?: ProposalState[];
  source?: ProposalSource;
  /** clean = may be approved in bulk (no blocker, duplicate or pending confirmation); blocked = a blocker. */
  check?: "clean" | "blocked";
};

/** The review queue, oldest first, secrets masked. */
export async function listProposals(db: Db, filter: ProposalFilter): Promise<ProposalSummary[]> {
  if (filter.projectIds.length === 0) return [];
  const rows = await db.proposal.findMany({
    where: {
      projectId: { in: filter.projectIds },
      ...(filter.states ? { state: { in: filter.states } } : {}),
      ...(filter.source ? { source: filter.source } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const people = await loadPeople(db, rows.map((row) => row.proposerId));
  const summaries = rows.map((row) => maskProposalSummary(toProposalSummary(row, people)));
  if (!filter.check) return summaries;
  // The blockers live in the checks JSON, so this filter runs here rather than in SQL.
  if (filter.check === "clean") return summaries.filter((summary) => isCleanForBulkApproval(summary.checks));
  return summaries.filter((summary) => summary.checks.blockers.length > 0);
}
