import { diagnose } from "@/lib/setup/diagnose";
import { getStoreStatus, refreshStore } from "@/lib/store/read-store";
import { getConfig } from "../../_server/context";
import { access, route } from "../../_server/guard";
import { json } from "../../_server/http";

export const dynamic = "force-dynamic";

/**
 * GET /api/health: check names and statuses only (details name paths: admins see them in
 * Settings), and whether this server reaches the team store: while it does not, pages still
 * serve the last known memories and `store.unreachableSince` says since when.
 */
export const GET = route(access.public, async () => {
  const config = getConfig();
  // At most one fetch every few seconds; a store that cannot be read is reported below, not thrown.
  await refreshStore(config).catch(() => undefined);
  const checks = await diagnose(config);
  const isOk = checks.every((check) => check.status !== "fail");
  const { unreachableSince, lastFetchedAt } = getStoreStatus(config);
  const store = { reachable: unreachableSince === null, unreachableSince: unreachableSince?.toISOString() ?? null, lastFetchedAt: lastFetchedAt?.toISOString() ?? null };
  return json({ ok: isOk, checks: checks.map(({ name, status }) => ({ name, status })), store }, isOk ? 200 : 503);
});
