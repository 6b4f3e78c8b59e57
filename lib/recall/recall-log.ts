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

/** The most rows one insert takes. */
const MAX_BATCH = 200;

type Waiting = { entries: { entry: RecallLogEntry; written: () => void }[]; isWriting: boolean };

const waitingByDb = new WeakMap<Db, Waiting>();

/**
 * Records one recall for the lead's recall log, and resolves once it is in the database. Recalls
 * that arrive while an insert is running go together in the next one (a group commit): recall is
 * the route every prompt of every member calls, and under load an insert per recall was a fifth
 * of its queries. Without load each recall is one insert, at once, as before. A failed insert is
 * logged, never the recall's failure: the log says what agents were given, it is not team memory.
 */
export function recordRecall(db: Db, entry: RecallLogEntry): Promise<void> {
  const waiting = waitingFor(db);
  const written = new Promise<void>((resolve) => waiting.entries.push({ entry, written: resolve }));
  if (!waiting.isWriting) void writeWaiting(db, waiting);
  return written;
}

async function writeWaiting(db: Db, waiting: Waiting): Promise<void> {
  waiting.isWriting = true;
  try {
    while (waiting.entries.length > 0) {
      const batch = waiting.entries.splice(0, MAX_BATCH);
      try {
        await db.recallEvent.createMany({ data: batch.map(({ entry }) => entry) });
      } catch (error) {
        log("warn", "recall.log_failed", { entries: batch.length, name: (error as Error)?.name ?? "unknown" });
      }
      for (const { written } of batch) written();
    }
  } finally {
    waiting.isWriting = false;
  }
}

function waitingFor(db: Db): Waiting {
  let waiting = waitingByDb.get(db);
  if (!waiting) {
    waiting = { entries: [], isWriting: false };
    waitingByDb.set(db, waiting);
  }
  return waiting;
}
