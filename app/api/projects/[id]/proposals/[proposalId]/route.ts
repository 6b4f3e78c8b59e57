import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { getProposal } from "@/lib/review/get-proposal";
import { getConfig, getDatabase } from "../../../../../_server/context";
import { access, route } from "../../../../../_server/guard";
import { json } from "../../../../../_server/http";
import { otherMethodsThan } from "../../../../../_server/other-methods";

/** GET /api/projects/:id/proposals/:proposalId: content, checks, revisions and history. */
export const GET = route<{ id: string; proposalId: string }>(access.project("read"), async ({ params }) => {
  await assertProposalInProject(getDatabase(), params.id, params.proposalId);
  return json({ proposal: await getProposal(getConfig(), getDatabase(), params.proposalId) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
