import { listMemberships } from "@/lib/auth/manage-users";
import { getDatabase } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";
import { otherMethodsThan } from "../../_server/other-methods";

/** GET /api/me: who the session or token belongs to, and their projects. */
export const GET = route(access.signedIn, async ({ caller }) => {
  const memberships = await listMemberships(getDatabase(), caller);
  return json({ user: { id: caller.userId, email: caller.email, name: caller.name, isAdmin: caller.isAdmin }, via: caller.via, projects: memberships });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
