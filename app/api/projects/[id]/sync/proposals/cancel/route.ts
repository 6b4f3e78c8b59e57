import { z } from "zod";
import { cancelSyncSubmission } from "@/lib/member-sync/cancel-sync-submission";
import { readJsonBody } from "../../../../../../_server/body";
import { getConfig, getDatabase } from "../../../../../../_server/context";
import { access, route } from "../../../../../../_server/guard";
import { json } from "../../../../../../_server/http";
import { otherMethodsThan } from "../../../../../../_server/other-methods";

const CancelInput = z.object({ idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,100}$/, { error: "must be 16 to 100 letters, digits, _ or -" }) }).strict();

/**
 * POST /api/projects/:id/sync/proposals/cancel: `teammem sync` no longer wants a change it may
 * have submitted with this key (the answer was lost): the caller's proposal the key made, if any,
 * is withdrawn. Answers `{proposalId, state}` (both null when the key made nothing).
 */
export const POST = route<{ id: string }>(access.project("propose"), async ({ request, caller, params }) => {
  const { idempotencyKey } = await readJsonBody(request, CancelInput);
  return json(await cancelSyncSubmission(getConfig(), getDatabase(), { projectId: params.id, userId: caller.userId, idempotencyKey }));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
