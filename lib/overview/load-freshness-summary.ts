import type { Config } from "../config";
import type { Db } from "../db/client";
import type { FreshnessSummary } from "./overview-types";

/**
 * The freshness part of the Overview. Until lib/stale's checks exist, every project reports
 * "not checked" with the reason, never "fresh": an unchecked memory is not a fresh one.
 */
export async function loadFreshnessSummary(_config: Config, _db: Db, _projectId: string): Promise<FreshnessSummary> {
  return { status: "not-checked", reason: "Freshness has not been checked yet: no stale check has run for this project." };
}
