import { listRecallEvents } from "@/lib/recall/recall-project-memories";
import { getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { otherMethodsThan } from "../../../../_server/other-methods";

/** GET /api/projects/:id/recall-events: what agents were given recently (leads and admins); tries on the Recall page are not among them. */
export const GET = route<{ id: string }>(access.project("oversee"), async ({ params }) => json({ events: await listRecallEvents(getDatabase(), params.id) }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
