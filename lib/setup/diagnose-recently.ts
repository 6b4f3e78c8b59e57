import type { Config } from "../config";
import { getStoreStatus } from "../store/read-store";
import { diagnose, type Check } from "./diagnose";

/** A health answer this young is served again: the checks open a database connection and ask the remote. */
const MAX_AGE_MS = 5_000;
const STORE_CHECK = "team store";

let latest: { at: number; checks: Promise<Check[]> } | null = null;

/**
 * `diagnose` for /api/health, which load balancers and monitors call often: at most one run every
 * few seconds, shared by every request that arrives meanwhile, so polling cannot load the server.
 * The team store's check is always current: it comes from this server's last fetch.
 */
export async function diagnoseRecently(config: Config, now = Date.now()): Promise<Check[]> {
  if (!latest || now - latest.at >= MAX_AGE_MS) {
    const checks = diagnose(config);
    latest = { at: now, checks };
    // A failed run is not kept: the next request checks again.
    checks.catch(() => {
      if (latest?.checks === checks) latest = null;
    });
  }
  const { unreachableSince, lastFetchedAt } = getStoreStatus(config);
  return (await latest.checks).map((check) => {
    if (check.name !== STORE_CHECK) return check;
    if (unreachableSince) return { ...check, status: "fail", detail: `cannot be reached since ${unreachableSince.toISOString()}` };
    return lastFetchedAt ? { ...check, status: "ok", detail: `fetched at ${lastFetchedAt.toISOString()}` } : check;
  });
}
