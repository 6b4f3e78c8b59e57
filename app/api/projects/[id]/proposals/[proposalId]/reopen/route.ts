import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { reopenProposal } from "@/lib/review/reopen-proposal";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

/** POST /api/projects/:id/proposals/:proposalId/reopen */
export const POST = route<{ id: string; proposalId: string }>(access.project("review"), async ({ caller, params }) => {
  const db = getDatabase();
  await assertProposalInProject(db, params.id, params.proposalId);
  // The detail after the change, as reopenProposal reads it once it is done.
  return json({ proposal: await reopenProposal(getConfig(), db, { proposalId: params.proposalId, actorId: caller.userId }) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
