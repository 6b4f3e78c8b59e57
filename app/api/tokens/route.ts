import { z } from "zod";
import { createApiToken, listApiTokens } from "@/lib/auth/manage-api-tokens";
import { readJsonBody } from "../../_server/body";
import { getDatabase } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";
import { otherMethodsThan } from "../../_server/other-methods";

const TokenInput = z
  .object({
    name: z.string().trim().min(1, { error: "give the token a name, such as the machine it is for" }).max(100, { error: "at most 100 characters" }),
    projectIds: z.array(z.string().max(100)).min(1, { error: "choose at least one project the token may reach" }).max(100),
    expiresInDays: z.number().int().min(1).max(3650).nullable().optional(),
  })
  .strict();

/** GET /api/tokens: the caller's tokens (never the token values). */
export const GET = route(access.signedIn, async ({ caller }) => json({ tokens: await listApiTokens(getDatabase(), caller.userId) }));

/** POST /api/tokens: creates a token; its value is in this response only. */
export const POST = route(access.signedIn, async ({ request, caller }) => {
  const input = await readJsonBody(request, TokenInput);
  const created = await createApiToken(getDatabase(), caller, input);
  return json(created, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
