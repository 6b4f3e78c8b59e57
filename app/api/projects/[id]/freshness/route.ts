import { checkProjectFreshnessNow, loadProjectFreshness } from "@/lib/stale/load-project-freshness";
import { getConfig, getDatabase } from "../../../../_server/context";
import { access, route } from "../../../../_server/guard";
import { json } from "../../../../_server/http";

export const dynamic = "force-dynamic";

/** GET /api/projects/:id/freshness: every team memory's staleness state, score, signals and unchecked checks (from the cache). */
export const GET = route<{ id: string }>(access.project("read"), async ({ params }) => {
  return json(await loadProjectFreshness(getConfig(), getDatabase(), params.id));
});

/** POST /api/projects/:id/freshness: fetch the code repository now and check again (leads). */
export const POST = route<{ id: string }>(access.project("manage"), async ({ params }) => {
  return json(await checkProjectFreshnessNow(getConfig(), getDatabase(), params.id));
});
