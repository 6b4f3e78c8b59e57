import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { applyRedaction } from "@/lib/review/apply-redaction";
import { getProposal } from "@/lib/review/get-proposal";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

/** POST /api/projects/:id/proposals/:proposalId/redact */
export const POST = route<{ id: string; proposalId: string }>(access.project("review"), async ({ caller, params }) => {
  const db = getDatabase();
  await assertProposalInProject(db, params.id, params.proposalId);
  await applyRedaction(getConfig(), db, { proposalId: params.proposalId, actorId: caller.userId });
  return json({ proposal: await getProposal(getConfig(), db, params.proposalId) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
