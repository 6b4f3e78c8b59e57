import type { Db } from "../db/client";
import { contentHash } from "../review/proposal-records";
import { OPEN_PROPOSAL_STATES } from "../review/proposal-types";

export type TwinQuery = { projectId: string; proposerId: string; path: string; content: string };

/**
 * The member's extraction proposal still waiting for review with this file and this exact text.
 * A run that failed part-way kept the proposals made before the failure but not its cursor: sent
 * again, each of those is answered with the proposal already in the queue, not a second copy.
 */
export async function findWaitingTwin(db: Db, query: TwinQuery): Promise<{ id: string; state: string } | null> {
  const rows = await db.proposal.findMany({
    where: { projectId: query.projectId, path: query.path, source: "extraction", proposerId: query.proposerId, state: { in: [...OPEN_PROPOSAL_STATES] } },
    select: { id: true, state: true, revision: true, revisions: { where: { contentHash: contentHash(query.content) }, select: { revision: true } } },
    orderBy: { createdAt: "asc" },
    take: 20,
  });
  const twin = rows.find((row) => row.revisions.some((revision) => revision.revision === row.revision));
  return twin ? { id: twin.id, state: twin.state } : null;
}
