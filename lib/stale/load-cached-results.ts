import type { Db } from "../db/client";
import { parseCheckResult, type CheckResult } from "./check-result";

const BATCH = 500;

/** The cached check of each blob at one code commit ("" = none), in batches under the parameter limit. */
export async function loadCachedResults(db: Db, blobs: string[], codeCommit: string): Promise<Map<string, CheckResult>> {
  const results = new Map<string, CheckResult>();
  const unique = [...new Set(blobs)];
  for (let start = 0; start < unique.length; start += BATCH) {
    const rows = await db.staleCheck.findMany({ where: { codeCommit, blob: { in: unique.slice(start, start + BATCH) } } });
    for (const row of rows) {
      const result = parseCheckResult(row.result);
      if (result) results.set(row.blob, result);
    }
  }
  return results;
}
