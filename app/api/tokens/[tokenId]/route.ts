import { revokeApiToken } from "@/lib/auth/manage-api-tokens";
import { getDatabase } from "../../../_server/context";
import { access, route } from "../../../_server/guard";
import { json } from "../../../_server/http";
import { otherMethodsThan } from "../../../_server/other-methods";

/** DELETE /api/tokens/:tokenId: revokes one of the caller's tokens. */
export const DELETE = route<{ tokenId: string }>(access.signedIn, async ({ caller, params }) =>
  json({ token: await revokeApiToken(getDatabase(), caller, params.tokenId) }),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethodsThan("DELETE");
