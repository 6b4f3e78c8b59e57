import type { Db } from "../db/client";
import { parseFreshnessDetails } from "./stored-freshness";

/**
 * The reasons each stale memory of `paths` is doubted, for its recall injection (a recall injects
 * up to five: one query for all). A memory that is not stale is absent: no doubts.
 */
export async function readStaleDoubtsOf(db: Db, projectId: string, paths: string[]): Promise<Map<string, string[]>> {
  const rows = await db.storeMemory.findMany({ where: { projectId, path: { in: [...new Set(paths)] }, freshState: "stale" }, select: { path: true, freshState: true, freshSignals: true } });
  return new Map(rows.map((row) => [row.path, doubtsOf(row)]));
}

function doubtsOf(row: { freshState: string | null; freshSignals: string }): string[] {
  if (row.freshState !== "stale") return [];
  // Code signals first: a missing file is a sharper warning than age.
  const order = ["missing-path", "moved-path", "missing-symbol", "past-date", "old", "duplicate", "never-recalled"];
  return parseFreshnessDetails(row.freshSignals).signals.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)).map((signal) => signal.message.replace(/`/g, ""));
}
