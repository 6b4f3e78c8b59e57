import { z } from "zod";
import { createAccount, listUsers } from "@/lib/auth/manage-users";
import { readJsonBody } from "../../../_server/body";
import { getAuth, getDatabase } from "../../../_server/context";
import { access, route } from "../../../_server/guard";
import { json } from "../../../_server/http";
import { otherMethodsThan } from "../../../_server/other-methods";

const UserInput = z.object({ email: z.email().max(320), name: z.string().trim().min(1).max(100), isAdmin: z.boolean().optional() }).strict();

/** GET /api/admin/users: every account. */
export const GET = route(access.admin, async () => json({ users: await listUsers(getDatabase()) }));

/** POST /api/admin/users: creates an account; its one-time password is in this response only. */
export const POST = route(access.admin, async ({ request }) => {
  const input = await readJsonBody(request, UserInput);
  const created = await createAccount(await getAuth(), getDatabase(), input);
  return json({ userId: created.userId, email: input.email.toLowerCase(), oneTimePassword: created.password }, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
