import type { Db } from "../db/client";
import { log } from "../log";

export type RecallLogEntry = {
  projectId: string;
  userId: string;
  queryHash: string;
  selector: string;
  selected: string;
  latencyMs: number;
  fellBack: boolean;
  at: Date;
};

/** How long an entry waits for others before the batch is written, and the most in one batch. */
const FLUSH_AFTER_MS = 100;
const MAX_BATCH = 200;

type Waiting = { entries: RecallLogEntry[]; timer: NodeJS.Timeout | null; writing: Promise<void> };

const waitingByDb = new WeakMap<Db, Waiting>();

/**
 * Records one recall for the lead's recall log. Entries are written in batches (one insert of up
 * to 200 rows at most 100 ms later) instead of one insert per recall: recall is the route every
 * prompt of every member calls, and its own insert was one of its five queries. Every reader of
 * the log in this process flushes first (flushRecallLog), so nothing here reads a log that misses
 * a recall it served; another instance's recalls appear within 100 ms. A crash loses at most the
 * last 100 ms of entries: the log says what agents were given, it is not team memory.
 */
export function recordRecall(db: Db, entry: RecallLogEntry): void {
  const waiting = waitingFor(db);
  waiting.entries.push(entry);
  if (waiting.entries.length >= MAX_BATCH) void flushRecallLog(db);
  else waiting.timer ??= setTimeout(() => void flushRecallLog(db), FLUSH_AFTER_MS);
}

/** Writes what is waiting (and waits for a write under way); call before reading the log. */
export async function flushRecallLog(db: Db): Promise<void> {
  const waiting = waitingFor(db);
  if (waiting.timer) clearTimeout(waiting.timer);
  waiting.timer = null;
  const batch = waiting.entries.splice(0);
  const previous = waiting.writing;
  waiting.writing = previous.then(async () => {
    if (batch.length === 0) return;
    try {
      await db.recallEvent.createMany({ data: batch });
    } catch (error) {
      log("warn", "recall.log_failed", { entries: batch.length, name: (error as Error)?.name ?? "unknown" });
    }
  });
  await waiting.writing;
}

function waitingFor(db: Db): Waiting {
  let waiting = waitingByDb.get(db);
  if (!waiting) {
    waiting = { entries: [], timer: null, writing: Promise.resolve() };
    waitingByDb.set(db, waiting);
  }
  return waiting;
}
