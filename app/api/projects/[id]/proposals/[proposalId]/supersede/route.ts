import { z } from "zod";
import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { getProposal } from "@/lib/review/get-proposal";
import { supersedeDuplicate } from "@/lib/review/supersede-duplicate";
import { readJsonBody } from "../../../../../../_server/body";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

const Input = z.object({ targetPath: z.string().min(1).max(300) }).strict();

/** POST /api/projects/:id/proposals/:proposalId/supersede {targetPath}: make it an edit of a listed duplicate. */
export const POST = route<{ id: string; proposalId: string }>(access.project("review"), async ({ request, caller, params }) => {
  const db = getDatabase();
  await assertProposalInProject(db, params.id, params.proposalId);
  const { targetPath } = await readJsonBody(request, Input);
  await supersedeDuplicate(getConfig(), db, { proposalId: params.proposalId, actorId: caller.userId, targetPath });
  return json({ proposal: await getProposal(getConfig(), db, params.proposalId) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
