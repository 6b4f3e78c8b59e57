import type { Db } from "../db/client";
import { parseFreshnessDetails } from "./stored-freshness";

/** The reasons a stale memory is doubted, for its recall injection; none unless it is stale (one small query). */
export async function readStaleDoubts(db: Db, projectId: string, path: string): Promise<string[]> {
  const row = await db.storeMemory.findUnique({ where: { projectId_path: { projectId, path } }, select: { freshState: true, freshSignals: true } });
  if (row?.freshState !== "stale") return [];
  // Code signals first: a missing file is a sharper warning than age.
  const order = ["missing-path", "moved-path", "missing-symbol", "past-date", "old", "duplicate", "never-recalled"];
  return parseFreshnessDetails(row.freshSignals).signals.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)).map((signal) => signal.message.replace(/`/g, ""));
}
