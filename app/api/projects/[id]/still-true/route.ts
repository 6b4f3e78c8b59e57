import { z } from "zod";
import { markStillTrue } from "@/lib/stale/mark-still-true";
import { readJsonBody } from "../../../../_server/body";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";

export const dynamic = "force-dynamic";

const StillTrue = z.object({ path: z.string().min(1).max(500) }).strict();

/** POST /api/projects/:id/still-true {path}: a lead confirms the memory against today's code (a store commit resets its age). */
export const POST = route<{ id: string }>(access.project("review"), async ({ request, caller, params }) => {
  const input = await readJsonBody(request, StillTrue);
  const outcome = await markStillTrue(getConfig(), getDatabase(), { projectId: params.id, path: input.path, actor: { userId: caller.userId, name: caller.name, email: caller.email } });
  return json(outcome);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("POST");
