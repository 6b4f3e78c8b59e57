import { directReadsOf, type Db } from "../db/client";
import { AppError } from "../errors";
import { assertProjectPermission, type ProjectRole } from "./permissions";
import type { Caller } from "./resolve-caller";

/**
 * Project routes check the caller's role in the project named in the path; this makes sure the
 * proposal named beside it belongs to that project, so a role in one project never reaches
 * another project's proposals. Unknown or foreign ids are the same 404.
 */
export async function assertProposalInProject(db: Db, projectId: string, proposalId: string): Promise<void> {
  const proposal = await readProposalProject(db, proposalId);
  if (!proposal || proposal.projectId !== projectId) throw new AppError("NOT_FOUND", "There is no such proposal in this project.");
}

/** For pages addressed by proposal id alone: the proposal's project and the caller's role in it. */
export async function assertCanReadProposal(db: Db, caller: Caller, proposalId: string): Promise<{ projectId: string; role: ProjectRole | "admin" }> {
  const proposal = await readProposalProject(db, proposalId);
  if (!proposal) throw new AppError("NOT_FOUND", "There is no such proposal.");
  const role = await assertProjectPermission(db, caller, proposal.projectId, "read");
  return { projectId: proposal.projectId, role };
}

// Every proposal route asks this first: on the driver (lib/db/direct-reads.ts).
function readProposalProject(db: Db, proposalId: string): Promise<{ projectId: string } | undefined> {
  return directReadsOf(db).one<{ projectId: string }>(`SELECT "projectId" FROM "Proposal" WHERE "id" = ?`, [proposalId]);
}
