import { diagnoseRecently } from "@/lib/setup/diagnose-recently";
import { readModelCatchUp } from "@/lib/read-model/ensure-read-model";
import { getStoreStatus, refreshStore } from "@/lib/store/read-store";
import { getConfig } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";
import { otherMethodsThan } from "../../_server/other-methods";

export const dynamic = "force-dynamic";

const STORE_CHECK = "team store";

/**
 * GET /api/health: check names and statuses only (details name paths: admins see them in
 * Settings), at most a few seconds old, and whether this server reaches the team store. An unreachable store alone does not
 * make the answer 503: pages keep serving the last known memories meanwhile, so a load balancer
 * must not take the server out; `store.unreachableSince` says since when. `store.catchingUpSince`:
 * since when reads serve an older commit while the read model catches up with a large push.
 */
export const GET = route(access.public, async () => {
  const config = getConfig();
  // At most one fetch every few seconds; a store that cannot be read is reported below, not thrown.
  await refreshStore(config).catch(() => undefined);
  const checks = await diagnoseRecently(config);
  const isOk = checks.every((check) => check.status !== "fail");
  const isServing = checks.every((check) => check.status !== "fail" || check.name === STORE_CHECK);
  const { unreachableSince, lastFetchedAt } = getStoreStatus(config);
  const store = { reachable: unreachableSince === null, unreachableSince: unreachableSince?.toISOString() ?? null, lastFetchedAt: lastFetchedAt?.toISOString() ?? null, catchingUpSince: readModelCatchUp(config)?.since.toISOString() ?? null };
  return json({ ok: isOk, checks: checks.map(({ name, status }) => ({ name, status })), store }, isServing ? 200 : 503);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET");
