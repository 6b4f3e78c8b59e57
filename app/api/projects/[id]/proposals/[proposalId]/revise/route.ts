import { z } from "zod";
import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { reviseProposal } from "@/lib/review/revise-proposal";
import { readJsonBody } from "../../../../../../_server/body";
import { MemoryContent } from "../../../../../../_server/memory-content";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

const Input = z.object({ content: MemoryContent.nullable(), note: z.string().max(2000).optional() }).strict();

/** POST /api/projects/:id/proposals/:proposalId/revise */
export const POST = route<{ id: string; proposalId: string }>(access.project("review"), async ({ request, caller, params }) => {
  const db = getDatabase();
  await assertProposalInProject(db, params.id, params.proposalId);
  const input = await readJsonBody(request, Input);
  // The detail after the change, as reviseProposal reads it once it is done.
  return json({ proposal: await reviseProposal(getConfig(), db, { proposalId: params.proposalId, actorId: caller.userId, ...input }) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
