import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { refreshProjectFreshness } from "./refresh-project-freshness";

/**
 * One scheduled round: every project with a code repository (archived ones left out) fetches it
 * and is checked again, one project after another so a round never takes more than one git
 * process at a time. A project that fails is logged and the round goes on.
 */
export async function runScheduledCodeChecks(config: Config, db: Db): Promise<{ checked: string[]; failed: string[] }> {
  const projects = await db.project.findMany({ where: { codeRepo: { not: null }, archivedAt: null }, select: { id: true }, orderBy: { id: "asc" } });
  const outcome = { checked: [] as string[], failed: [] as string[] };
  for (const { id } of projects) {
    try {
      await refreshProjectFreshness(config, db, id, { force: true });
      outcome.checked.push(id);
    } catch (error) {
      outcome.failed.push(id);
      log("warn", "stale.scheduled_check_failed", { projectId: id, name: (error as Error)?.name ?? "unknown" });
    }
  }
  return outcome;
}

/**
 * Code moves on without anyone opening a page: each server process fetches every project's code
 * repository and checks its memories again every `codeCheckIntervalMinutes` (0: only on demand,
 * from Settings or a page read). Rounds never overlap; the timer never keeps a process alive.
 * Returns a function that stops the schedule.
 */
export function startCodeCheckSchedule(config: Config, db: Db): () => void {
  if (config.codeCheckIntervalMinutes === 0) return () => undefined;
  let isRunning = false;
  const timer = setInterval(() => {
    if (isRunning) return;
    isRunning = true;
    runScheduledCodeChecks(config, db)
      .catch((error: unknown) => log("warn", "stale.schedule_failed", { name: (error as Error)?.name ?? "unknown" }))
      .finally(() => (isRunning = false));
  }, config.codeCheckIntervalMinutes * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
