import { z } from "zod";
import { listProjectMembers } from "@/lib/auth/manage-users";
import { PROJECT_ROLES } from "@/lib/auth/permissions";
import { setMemberRole } from "@/lib/projects/set-member-role";
import { readJsonBody } from "../../../../_server/body";
import { getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";

const MemberInput = z.object({ email: z.email().max(320), role: z.enum(PROJECT_ROLES) }).strict();

/** GET /api/projects/:id/members: who has which role. */
export const GET = route<{ id: string }>(access.project("read"), async ({ params }) =>
  json({ members: await listProjectMembers(getDatabase(), params.id) }),
);

/** POST /api/projects/:id/members {email, role}: a lead gives an existing account a role. */
export const POST = route<{ id: string }>(access.project("manage"), async ({ request, caller, params }) => {
  const input = await readJsonBody(request, MemberInput);
  await setMemberRole(getDatabase(), { actor: { userId: caller.userId, name: caller.name, email: caller.email }, projectId: params.id, email: input.email, role: input.role });
  return json({ members: await listProjectMembers(getDatabase(), params.id) });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
