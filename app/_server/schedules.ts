import { log } from "@/lib/log";
import { warmDuplicateFinders } from "@/lib/review/load-duplicate-finder";
import { startOrphanedApprovalSweep } from "@/lib/review/reconcile-commits";
import { startCodeCheckSchedule } from "@/lib/stale/schedule-code-checks";
import { getConfig, getDatabase } from "./context";

/** Background work a server process runs on its own, started once from instrumentation.ts. */
export function startServerSchedules(): void {
  startCodeCheckSchedule(getConfig(), getDatabase());
  startOrphanedApprovalSweep(getConfig(), getDatabase());
  // Once start-up has settled (the first requests may catch the read model up with many commits):
  // the review caches the first approval would otherwise build.
  setTimeout(() => {
    warmDuplicateFinders(getConfig(), getDatabase()).catch((error: unknown) => log("warn", "review.warm_up_failed", { name: (error as Error)?.name ?? "unknown" }));
  }, WARM_UP_DELAY_MS).unref();
}

const WARM_UP_DELAY_MS = 30_000;
