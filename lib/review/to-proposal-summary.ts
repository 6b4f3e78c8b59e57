import type { ProposalPerson, ProposalSummary } from "./proposal-types";
import { sourceOf, stateOf, type ProposalRow } from "./proposal-records";
import { parseStoredChecks } from "./stored-checks";

/** The queue's view of one proposal row (no revision or store reads). */
export function toProposalSummary(proposal: ProposalRow, people: Map<string, ProposalPerson>): ProposalSummary {
  const stored = parseStoredChecks(proposal.checks);
  return {
    id: proposal.id,
    projectId: proposal.projectId,
    path: proposal.path,
    source: sourceOf(proposal.source),
    state: stateOf(proposal),
    revision: proposal.revision,
    proposer: people.get(proposal.proposerId) ?? { id: proposal.proposerId, name: "(removed user)", email: "" },
    createdAt: proposal.createdAt,
    updatedAt: proposal.updatedAt,
    name: stored.name,
    type: stored.type,
    isRetirement: stored.isRetirement,
    checks: stored.checks,
  };
}
