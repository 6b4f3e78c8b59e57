import type { Config } from "../config";
import { directReadsOf, type Db } from "../db/client";
import { isProjectRole } from "../auth/permissions";
import { detectSecrets } from "../secrets/detect-secrets";
import { readBlob, readCurrentFile } from "../store/commit-change";
import { maskedBlobId } from "../store/masked-blob-id";
import { maskProposalDetail } from "./mask-proposal";
import { findProposalOrThrow, loadPeople } from "./proposal-records";
import { isProposalState } from "./proposal-transitions";
import type { ProposalDetail } from "./proposal-types";
import { refreshDuplicateChecks } from "./refresh-duplicate-checks";
import { readEventsDirectly, readRevisionListDirectly } from "./read-proposal-directly";
import { parseStoredChecks } from "./stored-checks";
import { toProposalSummary } from "./to-proposal-summary";

/** Everything the proposal page shows (content, base and head, checks against the store now, revisions, events), secrets masked. */
export async function getProposal(config: Config, db: Db, proposalId: string): Promise<ProposalDetail> {
  const found = await findProposalOrThrow(db, proposalId);
  const { content } = found;
  const proposal = (await refreshDuplicateChecks(config, db, [found.proposal], new Map([[proposalId, content]])))[0] ?? found.proposal;
  const reads = directReadsOf(db);
  const [revisions, events, baseContent, head, membership] = await Promise.all([
    readRevisionListDirectly(reads, proposalId),
    readEventsDirectly(reads, proposalId),
    proposal.baseBlob ? readBlob(config, proposal.baseBlob) : Promise.resolve(null),
    readCurrentFile(config, proposal.projectId, proposal.path),
    reads.one<{ role: string }>(`SELECT "role" FROM "ProjectMember" WHERE "projectId" = ? AND "userId" = ?`, [proposal.projectId, proposal.proposerId]),
  ]);
  const people = await loadPeople(db, [proposal.proposerId, ...revisions.map((revision) => revision.authorId), ...events.map((event) => event.actorId)]);
  const stored = parseStoredChecks(proposal.checks);
  return maskProposalDetail({
    ...toProposalSummary(proposal, people),
    content,
    // A base that holds a secret is named by its masked id (lib/store/masked-blob-id.ts).
    baseBlob: proposal.baseBlob && baseContent !== null && detectSecrets(baseContent).length > 0 ? maskedBlobId(config, proposal.baseBlob) : proposal.baseBlob,
    baseContent,
    headContent: head?.content ?? null,
    provenance: parseProvenance(proposal.provenance),
    teamConventionConfirmed: proposal.teamConventionConfirmed,
    approvedRevision: proposal.approvedRevision,
    committedCommit: proposal.committedCommit,
    committedAt: proposal.committedCommit ? (events.findLast((event) => event.toState === "committed")?.at ?? null) : null,
    proposerRole: isProjectRole(membership?.role) ? membership.role : null,
    rejectionReason: proposal.rejectionReason,
    conflict: proposal.state === "conflicted" ? stored.conflict : null,
    revisions: revisions.map((revision) => ({
      revision: revision.revision,
      authorName: people.get(revision.authorId)?.name ?? "(removed user)",
      note: revision.note,
      createdAt: revision.createdAt,
    })),
    events: events.flatMap((event) =>
      isProposalState(event.toState)
        ? [{
            at: event.at,
            actorName: event.actorId ? (people.get(event.actorId)?.name ?? "(removed user)") : null,
            fromState: isProposalState(event.fromState) ? event.fromState : null,
            toState: event.toState,
            revision: event.revision,
            reason: event.reason,
          }]
        : [],
    ),
  });
}

function parseProvenance(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {}; // written only by submitProposal as JSON; an unreadable value shows as none
  }
}
