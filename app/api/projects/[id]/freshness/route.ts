import { z } from "zod";
import { checkProjectFreshnessNow, loadProjectFreshness } from "@/lib/stale/load-project-freshness";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";

export const dynamic = "force-dynamic";

const Paging = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  pageSize: z.coerce.number().int().min(1).max(500).catch(100),
});

/**
 * GET /api/projects/:id/freshness?page=N&pageSize=M: the team memories' staleness state, score,
 * signals and unchecked checks (from the cache), stalest first, 100 per page by default, at most
 * 500, with `page`, `pageSize`, `total` and `pageCount`: the answer stays bounded at 10,000 memories.
 */
export const GET = route<{ id: string }>(access.project("read"), async ({ request, params }) => {
  const query = new URL(request.url).searchParams;
  const { page, pageSize } = Paging.parse({ page: query.get("page") ?? undefined, pageSize: query.get("pageSize") ?? undefined });
  const db = getDatabase();
  const freshness = await loadProjectFreshness(getConfig(), db, params.id, { skip: (page - 1) * pageSize, take: pageSize });
  const total = await db.storeMemory.count({ where: { projectId: params.id } });
  return json({ ...freshness, page, pageSize, total, pageCount: Math.max(1, Math.ceil(total / pageSize)) });
});

/** POST /api/projects/:id/freshness: fetch the code repository now and check again (leads). */
export const POST = route<{ id: string }>(access.project("manage"), async ({ params }) => {
  return json(await checkProjectFreshnessNow(getConfig(), getDatabase(), params.id));
});
