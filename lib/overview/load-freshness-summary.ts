import type { Config } from "../config";
import type { Db } from "../db/client";
import { isAppError } from "../errors";
import { log } from "../log";
import { maskSecretsForDisplay } from "../secrets/mask-secret-ranges";
import { loadProjectFreshness } from "../stale/load-project-freshness";
import type { FreshnessSummary } from "./overview-types";
import { summarizeFreshness } from "./summarize-freshness";

/**
 * The freshness part of the Overview, from lib/stale's stored results (a project never checked
 * is checked first). When no check has run, or it failed, the project reports "not checked" with
 * the reason, never "fresh": an unchecked memory is not a fresh one.
 */
export async function loadFreshnessSummary(config: Config, db: Db, projectId: string): Promise<FreshnessSummary> {
  try {
    const freshness = await loadProjectFreshness(config, db, projectId);
    if (freshness.checkedAt === null) return { status: "not-checked", reason: freshness.codeRepoProblem ?? "no freshness check has run for this project yet." };
    return summarizeFreshness(freshness);
  } catch (error) {
    // The rest of the Overview stays useful when the check cannot run; the page says why.
    log("warn", "overview.freshness_failed", { projectId, name: (error as Error)?.name ?? "unknown" });
    return { status: "not-checked", reason: isAppError(error) ? maskSecretsForDisplay(error.message) : "the freshness check failed on the server (logged); it is retried on the next visit." };
  }
}
