import { startCodeCheckSchedule } from "@/lib/stale/schedule-code-checks";
import { getConfig, getDatabase } from "./context";

/** Background work a server process runs on its own, started once from instrumentation.ts. */
export function startServerSchedules(): void {
  startCodeCheckSchedule(getConfig(), getDatabase());
}
