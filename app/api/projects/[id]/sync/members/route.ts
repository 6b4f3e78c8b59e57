import { listMemberSyncs } from "@/lib/member-sync/list-member-syncs";
import { getDatabase } from "../../../../../_server/context";
import { access, route } from "../../../../../_server/guard";
import { json } from "../../../../../_server/http";
import { otherMethodsThan } from "../../../../../_server/other-methods";

export const dynamic = "force-dynamic";

/** GET /api/projects/:id/sync/members: each member's last sync, client version, store commit held and open proposals (leads). */
export const GET = route<{ id: string }>(access.project("oversee"), async ({ params }) => json(await listMemberSyncs(getDatabase(), params.id)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
