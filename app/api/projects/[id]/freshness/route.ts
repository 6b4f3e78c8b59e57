import { checkProjectFreshnessNow, loadProjectFreshness } from "@/lib/stale/load-project-freshness";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";
import { readPaging } from "../../../../_server/paging";
import { otherMethodsThan } from "../../../../_server/other-methods";

export const dynamic = "force-dynamic";

const FRESHNESS_PAGING = { defaultPageSize: 100, maxPageSize: 500 };

/**
 * GET /api/projects/:id/freshness?page=N&pageSize=M: the team memories' staleness state, score,
 * signals and unchecked checks (from the cache), stalest first, 100 per page by default, at most
 * 500, with `page`, `pageSize`, `total` and `pageCount`: the answer stays bounded at 10,000 memories.
 */
export const GET = route<{ id: string }>(access.project("read"), async ({ request, params }) => {
  const { page, pageSize } = readPaging(new URL(request.url).searchParams, FRESHNESS_PAGING);
  const db = getDatabase();
  const freshness = await loadProjectFreshness(getConfig(), db, params.id, { skip: (page - 1) * pageSize, take: pageSize });
  const total = await db.storeMemory.count({ where: { projectId: params.id } });
  return json({ ...freshness, page, pageSize, total, pageCount: Math.max(1, Math.ceil(total / pageSize)) });
});

/** POST /api/projects/:id/freshness: fetch the code repository now and check again (leads). */
export const POST = route<{ id: string }>(access.project("manage"), async ({ params }) => {
  return json(await checkProjectFreshnessNow(getConfig(), getDatabase(), params.id));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
