import type { Db } from "../db/client";
import { OPEN_PROPOSAL_STATES } from "./proposal-types";

/** Proposals that still need someone to act, for the navigation badge. */
export async function countOpenProposals(db: Db, projectIds: string[]): Promise<number> {
  if (projectIds.length === 0) return 0;
  return db.proposal.count({ where: { projectId: { in: projectIds }, state: { in: [...OPEN_PROPOSAL_STATES] } } });
}
