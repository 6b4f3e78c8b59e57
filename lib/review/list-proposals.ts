import type { Config } from "../config";
import type { Db } from "../db/client";
import { maskProposalSummary } from "./mask-proposal";
import { isCleanForBulkApproval } from "./review-attention";
import { loadPeople } from "./proposal-records";
import { refreshDuplicateChecks } from "./refresh-duplicate-checks";
import type { ProposalSource, ProposalState, ProposalSummary } from "./proposal-types";
import { toProposalSummary } from "./to-proposal-summary";

export type ProposalFilter = {
  projectIds: string[];
  states?: ProposalState[];
  source?: ProposalSource;
  /** clean = may be approved in bulk (no blocker, duplicate or pending confirmation); blocked = a blocker. */
  check?: "clean" | "blocked";
};

const APPROVABLE_STATES: ReadonlySet<ProposalState> = new Set(["submitted", "in_review"]);

/** The review queue, oldest first, secrets masked, open proposals' duplicates checked against the store now. */
export async function listProposals(config: Config, db: Db, filter: ProposalFilter): Promise<ProposalSummary[]> {
  if (filter.projectIds.length === 0) return [];
  const found = await db.proposal.findMany({
    where: {
      projectId: { in: filter.projectIds },
      ...(filter.states ? { state: { in: filter.states } } : {}),
      ...(filter.source ? { source: filter.source } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  // The duplicates as the store stands now: check=clean must not list a proposal a memory approved since has copied.
  const rows = await refreshDuplicateChecks(config, db, found);
  const people = await loadPeople(db, rows.map((row) => row.proposerId));
  const summaries = rows.map((row) => maskProposalSummary(toProposalSummary(row, people)));
  if (!filter.check) return summaries;
  // The blockers live in the checks JSON, so this filter runs here rather than in SQL.
  // Clean is what "Approve all clean" may take: open for approval as well (a conflicted,
  // committed or withdrawn proposal keeps the checks it had, and they may read clean).
  if (filter.check === "clean") return summaries.filter((summary) => APPROVABLE_STATES.has(summary.state) && isCleanForBulkApproval(summary.checks));
  return summaries.filter((summary) => summary.checks.blockers.length > 0);
}
