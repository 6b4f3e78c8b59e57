import type { Db } from "../db/client";
import { log } from "../log";
import { processWide } from "../process-wide";

/**
 * Who was given the memories: an agent's prompt, or a person trying prompts on the dashboard's
 * Recall page (`playground`), which is kept apart from what agents were given.
 */
export type RecallSource = "agent" | "playground";

export type RecallLogEntry = {
  projectId: string;
  userId: string;
  queryHash: string;
  selector: string;
  selected: string;
  latencyMs: number;
  fellBack: boolean;
  at: Date;
  /** Left out: "agent". */
  source?: RecallSource;
};

/** The most rows one insert takes. */
const MAX_BATCH = 200;

/**
 * How long an entry may wait for the ones after it. Recall is the route every prompt of every
 * member calls; an insert per recall was ~1.7 ms of the server's one thread on SQLite (Prisma's
 * query compile, and the commit's sync to disk blocking the thread), a fifth of the recall.
 * One insert per 100 ms costs that once for every recall in the window (ten at 100 a second;
 * at 20 ms it was one or two).
 */
const FLUSH_AFTER_MS = 100;

type Pending = { entries: RecallLogEntry[]; timer: NodeJS.Timeout | null; writing: Promise<void> };

// Process-wide: the server's recall route and Next.js's bundled copies of this module must
// share one buffer per client, so a flush (before a read, at shutdown) sees every entry.
const pendingByDb = processWide("recallLogPending", () => new Map<Db, Pending>());

/**
 * Records one recall for the lead's recall log. The recall does not wait for the database: the
 * entry is written with the others of the next 100 ms, in order. This instance's readers of the
 * log flush first (`flushRecallLog`), so a lead never misses a recall this instance answered;
 * other instances see it within the window. A stopping server flushes (`flushAllRecallLogs`);
 * only a killed one can lose the last window. A failed insert is logged, never the recall's
 * failure: the log says what agents were given, it is not team memory.
 */
export function recordRecall(db: Db, entry: RecallLogEntry): void {
  const pending = pendingFor(db);
  pending.entries.push(entry);
  if (pending.entries.length >= MAX_BATCH) void flushRecallLog(db);
  else pending.timer ??= setTimeout(() => void flushRecallLog(db), FLUSH_AFTER_MS);
}

/** Writes every entry recorded so far through this client; resolves once they are in the database. */
export function flushRecallLog(db: Db): Promise<void> {
  const pending = pendingByDb.get(db);
  if (!pending) return Promise.resolve();
  if (pending.timer) clearTimeout(pending.timer);
  pending.timer = null;
  const batch = pending.entries.splice(0);
  // Chained: batches reach the database in the order they were recorded.
  pending.writing = pending.writing.then(() => writeBatch(db, batch));
  return pending.writing;
}

/** At shutdown: every client's entries, before the process exits. */
export async function flushAllRecallLogs(): Promise<void> {
  await Promise.all([...pendingByDb.keys()].map(flushRecallLog));
}

async function writeBatch(db: Db, batch: RecallLogEntry[]): Promise<void> {
  for (let start = 0; start < batch.length; start += MAX_BATCH) {
    const rows = batch.slice(start, start + MAX_BATCH);
    try {
      await db.recallEvent.createMany({ data: rows });
    } catch (error) {
      log("warn", "recall.log_failed", { entries: rows.length, name: (error as Error)?.name ?? "unknown" });
    }
  }
}

/** A closed client's buffer, once flushed. */
export function forgetRecallLog(db: Db): void {
  pendingByDb.delete(db);
}

function pendingFor(db: Db): Pending {
  let pending = pendingByDb.get(db);
  if (!pending) {
    pending = { entries: [], timer: null, writing: Promise.resolve() };
    pendingByDb.set(db, pending);
  }
  return pending;
}
