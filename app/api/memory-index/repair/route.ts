import { z } from "zod";
import { repairPrivateIndex } from "@/lib/memories/repair-private-index";
import { readJsonBody } from "../../../_server/body";
import { getConfig } from "../../../_server/context";
import { access, route } from "../../../_server/guard";
import { json } from "../../../_server/http";
import { otherMethodsThan } from "../../../_server/other-methods";

const RepairInput = z
  .object({
    folder: z.string().min(1).max(300),
    expectedHash: z.string().regex(/^[0-9a-f]{64}$/, "must be the hash shown with the diff"),
  })
  .strict();

/**
 * POST /api/memory-index/repair: repairs a private MEMORY.md under the Claude home. Signed in is
 * enough to ask; lib answers NOT_FOUND to anyone but the home's owner.
 */
export const POST = route(access.signedIn, async ({ request, caller }) => {
  const input = await readJsonBody(request, RepairInput);
  return json(await repairPrivateIndex({ config: getConfig(), caller, ...input }));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
