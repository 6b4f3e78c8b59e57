import { z } from "zod";
import { assertProposalInProject } from "@/lib/auth/assert-proposal-in-project";
import { isAppError } from "@/lib/errors";
import { approveProposal } from "@/lib/review/approve-proposal";
import { readJsonBody } from "../../../../../_server/body";
import { getConfig, getDatabase } from "../../../../../_server/context";
import { access, route } from "../../../../../_server/guard";
import { json, toShownError } from "../../../../../_server/http";
import { maskSecretsInQuotedNames } from "@/lib/secrets/mask-secret-ranges";
import { otherMethodsThan } from "../../../../../_server/other-methods";

const Input = z.object({ items: z.array(z.object({ proposalId: z.string().min(1).max(100), revision: z.number().int().min(1) }).strict()).min(1).max(100) }).strict();

/**
 * POST /api/projects/:id/proposals/bulk-approve: approves each listed revision in turn; every
 * check still applies to each one, anything that needs a reviewer's judgement (a possible
 * duplicate, a scope confirmation) is refused, and one refusal does not stop the rest.
 */
export const POST = route<{ id: string }>(access.project("review"), async ({ request, caller, params }) => {
  const db = getDatabase();
  const { items } = await readJsonBody(request, Input);
  const results = [];
  for (const item of items) {
    try {
      await assertProposalInProject(db, params.id, item.proposalId);
      const proposal = await approveProposal(getConfig(), db, { proposalId: item.proposalId, approverId: caller.userId, revision: item.revision, requireClean: true });
      results.push({ proposalId: item.proposalId, state: proposal.state });
    } catch (error) {
      if (!isAppError(error)) throw error;
      // The id is echoed as sent (it may be anything), and the message may quote it: both masked as errors are.
      results.push({ proposalId: maskSecretsInQuotedNames(item.proposalId), error: { code: error.code, message: toShownError(error, "bulk-approve").message } });
    }
  }
  return json({ results });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
