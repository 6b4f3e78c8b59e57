import { directReadsOf, type Db } from "../db/client";
import { parseFreshnessDetails } from "./stored-freshness";

/**
 * The reasons each stale memory of `paths` is doubted, for its recall injection (a recall injects
 * up to five: one query for all). A memory that is not stale is absent: no doubts.
 */
export async function readStaleDoubtsOf(db: Db, projectId: string, paths: string[]): Promise<Map<string, string[]>> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return new Map();
  // Every recall with a selection makes this read: on the driver (lib/db/direct-reads.ts).
  const rows = await directReadsOf(db).all<{ path: string; freshState: string | null; freshSignals: string }>(
    `SELECT "path", "freshState", "freshSignals" FROM "StoreMemory" WHERE "projectId" = ? AND "freshState" = 'stale' AND "path" IN (${unique.map(() => "?").join(", ")})`,
    [projectId, ...unique],
  );
  return new Map(rows.map((row) => [row.path, doubtsOf(row)]));
}

function doubtsOf(row: { freshState: string | null; freshSignals: string }): string[] {
  if (row.freshState !== "stale") return [];
  // Code signals first: a missing file is a sharper warning than age.
  const order = ["missing-path", "moved-path", "missing-symbol", "past-date", "old", "duplicate", "never-recalled"];
  return parseFreshnessDetails(row.freshSignals).signals.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)).map((signal) => signal.message.replace(/`/g, ""));
}
