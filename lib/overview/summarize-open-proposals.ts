import type { Db } from "../db/client";
import { OPEN_PROPOSAL_STATES } from "../review/proposal-types";

export type OpenProposalCount = { projectId: string; openCount: number; oldestOpenAt: string | null };

/** Open proposals per project and the oldest waiting, in one grouped query over all of them. */
export async function summarizeOpenProposals(db: Db, projectIds: string[]): Promise<Map<string, OpenProposalCount>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.proposal.groupBy({
    by: ["projectId"],
    where: { projectId: { in: projectIds }, state: { in: [...OPEN_PROPOSAL_STATES] } },
    _count: { _all: true },
    _min: { createdAt: true },
  });
  return new Map(rows.map((row) => [row.projectId, { projectId: row.projectId, openCount: row._count._all, oldestOpenAt: row._min.createdAt?.toISOString() ?? null }]));
}
