import { z } from "zod";
import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { getProposal } from "@/lib/review/get-proposal";
import { readJsonBody } from "../../../../../../_server/body";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

const Input = z.object({ reason: z.string().trim().min(1, "say why it is rejected").max(2000) }).strict();

/** POST /api/projects/:id/proposals/:proposalId/reject */
export const POST = route<{ id: string; proposalId: string }>(access.project("review"), async ({ request, caller, params }) => {
  const db = getDatabase();
  await assertProposalInProject(db, params.id, params.proposalId);
  const input = await readJsonBody(request, Input);
  await rejectProposal(getConfig(), db, { proposalId: params.proposalId, actorId: caller.userId, reason: input.reason });
  return json({ proposal: await getProposal(getConfig(), db, params.proposalId) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
