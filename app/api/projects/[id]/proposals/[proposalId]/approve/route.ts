import { z } from "zod";
import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { approveProposal } from "@/lib/review/approve-proposal";
import { readJsonBody } from "../../../../../../_server/body";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

const Input = z.object({ revision: z.number().int().min(1), confirmTeamConvention: z.boolean().optional() }).strict();

/** POST /api/projects/:id/proposals/:proposalId/approve */
export const POST = route<{ id: string; proposalId: string }>(access.project("review"), async ({ request, caller, params }) => {
  const db = getDatabase();
  await assertProposalInProject(db, params.id, params.proposalId);
  const input = await readJsonBody(request, Input);
  // The detail after the change, as approveProposal reads it once it is done.
  return json({ proposal: await approveProposal(getConfig(), db, { proposalId: params.proposalId, approverId: caller.userId, ...input }) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
