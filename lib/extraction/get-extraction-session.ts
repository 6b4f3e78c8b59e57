import type { Db } from "../db/client";
import { maskProposalSummary } from "../review/mask-proposal";
import { loadPeople } from "../review/proposal-records";
import type { ProposalSummary } from "../review/proposal-types";
import { toProposalSummary } from "../review/to-proposal-summary";
import type { ViewMessage } from "../transcripts/conversation-view";

export type ExtractionSessionView = {
  sessionId: string;
  projectId: string;
  /** The redacted excerpt the member shared; null when they did not share it. */
  excerpt: ViewMessage[] | null;
  /** The session's extraction proposals, oldest first, secrets masked. */
  proposals: ProposalSummary[];
};

/** A session's conversation view and its proposals, for reviewing them together; null when unknown. */
export async function getExtractionSession(db: Db, projectId: string, sessionId: string): Promise<ExtractionSessionView | null> {
  const row = await db.extractionSession.findUnique({ where: { projectId_sessionId: { projectId, sessionId } } });
  if (!row) return null;
  const rows = await db.proposal.findMany({
    // The session id is in the provenance JSON; project and source narrow the rows first.
    where: { projectId, source: "extraction", provenance: { contains: JSON.stringify({ session: sessionId }).slice(1, -1) } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 200,
  });
  const people = await loadPeople(db, rows.map((proposal) => proposal.proposerId));
  return { sessionId, projectId, excerpt: row.excerpt ? (JSON.parse(row.excerpt) as ViewMessage[]) : null, proposals: rows.map((proposal) => maskProposalSummary(toProposalSummary(proposal, people))) };
}
