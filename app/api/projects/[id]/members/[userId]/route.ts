import { removeMember } from "@/lib/projects/remove-member";
import { getDatabase } from "../../../../../_server/context";
import { access, route } from "../../../../../_server/guard";
import { otherMethodsThan } from "../../../../../_server/other-methods";

/** DELETE /api/projects/:id/members/:userId: a lead removes someone's role. */
export const DELETE = route<{ id: string; userId: string }>(access.project("manage"), async ({ caller, params }) => {
  await removeMember(getDatabase(), { actor: { userId: caller.userId, name: caller.name, email: caller.email }, projectId: params.id, userId: params.userId });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethodsThan("DELETE");
