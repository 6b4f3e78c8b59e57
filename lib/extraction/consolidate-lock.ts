import { randomUUID } from "node:crypto";
import { rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { countNewSessions } from "./count-new-sessions";

/** C11: consolidation runs at most once per 24 hours… */
export const CONSOLIDATION_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** …and only after this many sessions since the last one. */
export const MIN_NEW_SESSIONS = 5;
const LOCK_FILE = ".consolidate-lock";

export type ConsolidationClaim =
  | { isClaimed: true; previousRun: Date | null; release: (hasConsolidated: boolean) => Promise<void> }
  | { isClaimed: false; previousRun: Date | null; reason: string };

/**
 * C11: the `.consolidate-lock` file's mtime records the last consolidation. Claiming rewrites it
 * (atomically) before the run so a second run the same day is refused; a run that failed or found
 * nothing to consolidate puts the lock back as it was, so it is retried instead of waiting a day.
 * It also waits for five new sessions when they can be counted, before the first run too.
 */
export async function claimConsolidation(memoryDir: string, now = new Date(), isForced = false): Promise<ConsolidationClaim> {
  const lockPath = path.join(memoryDir, LOCK_FILE);
  const previous = await stat(lockPath).then((info) => info.mtime, () => null);
  if (previous && !isForced) {
    const nextRun = new Date(previous.getTime() + CONSOLIDATION_INTERVAL_MS);
    if (now < nextRun) return { isClaimed: false, previousRun: previous, reason: `Last consolidation ${previous.toISOString()}; the next one may run after ${nextRun.toISOString()} (or use --force).` };
  }
  if (!isForced) {
    // C11 makes no exception for the first run: with no lock yet, every session so far is new.
    const sessions = await countNewSessions(memoryDir, previous);
    if (sessions !== null && sessions < MIN_NEW_SESSIONS) {
      const since = previous ? `Last consolidation ${previous.toISOString()}; ${sessions} of ${MIN_NEW_SESSIONS} new sessions since then` : `No consolidation yet; ${sessions} of ${MIN_NEW_SESSIONS} new sessions so far`;
      return { isClaimed: false, previousRun: previous, reason: `${since}, so it waits (or use --force).` };
    }
  }
  const temp = `${lockPath}.${randomUUID()}.tmp`;
  await writeFile(temp, `${process.pid}\n`);
  await rename(temp, lockPath);
  await utimes(lockPath, now, now);
  return {
    isClaimed: true,
    previousRun: previous,
    release: async (hasConsolidated) => {
      if (hasConsolidated) return;
      // No lock before this run: none after it, so the next run is not held back by one that did nothing.
      if (!previous) return rm(lockPath, { force: true });
      await utimes(lockPath, previous, previous);
    },
  };
}
