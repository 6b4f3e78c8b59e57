import { directReadsOf, type Db } from "../db/client";
import { asDate } from "../db/direct-reads";
import { assessFreshness } from "./assess-freshness";
import type { CheckResult } from "./check-result";
import { readStaleAfterDays, thresholdsFromDays } from "./stale-thresholds";
import { parseFreshnessDetails } from "./stored-freshness";

/**
 * The reasons each stale memory of `paths` is doubted, for its recall injection (a recall injects
 * up to five: one query for all). A memory that is not stale is absent: no doubts.
 */
export async function readStaleDoubtsOf(db: Db, projectId: string, paths: string[], now: Date = new Date()): Promise<Map<string, string[]>> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return new Map();
  // Every recall with a selection makes this read: on the driver (lib/db/direct-reads.ts).
  const rows = await directReadsOf(db).all<{ path: string; freshState: string | null; freshSignals: string; type: string | null; changedAt: Date | string | number }>(
    `SELECT "path", "freshState", "freshSignals", "type", "changedAt" FROM "StoreMemory" WHERE "projectId" = ? AND ("freshState" = 'stale' OR "freshState" IS NULL) AND "path" IN (${unique.map(() => "?").join(", ")})`,
    [projectId, ...unique],
  );
  const doubts = new Map(rows.filter((row) => row.freshState === "stale").map((row) => [row.path, doubtsOf(row)]));
  const unchecked = rows.filter((row) => row.freshState === null);
  if (unchecked.length > 0) for (const [path, reasons] of await judgeByAgeAlone(db, projectId, unchecked, now)) doubts.set(path, reasons);
  return doubts;
}

/**
 * A memory the checks have not reached yet (new or changed since the last check, which runs a
 * moment after the commit): judged now by what needs no check, its age against the project's
 * limits, so an old memory pushed from elsewhere is not handed over as trusted in between.
 */
async function judgeByAgeAlone(db: Db, projectId: string, rows: { path: string; type: string | null; changedAt: Date | string | number }[], now: Date): Promise<Map<string, string[]>> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { staleAfterDays: true } });
  const thresholds = thresholdsFromDays(readStaleAfterDays(project?.staleAfterDays));
  const judged = new Map<string, string[]>();
  for (const row of rows) {
    const assessment = assessFreshness({ type: row.type, lastCommitAt: asDate(row.changedAt) ?? now, now, check: NOTHING_CHECKED, codeProblem: null, wasRecalled: null, duplicateOf: null, thresholds });
    if (assessment.state === "stale") judged.set(row.path, assessment.signals.map((signal) => signal.message.replace(/`/g, "")));
  }
  return judged;
}

const NOTHING_CHECKED: CheckResult = { code: null, claims: [], citationCount: 0, isTruncated: false };

function doubtsOf(row: { freshState: string | null; freshSignals: string }): string[] {
  if (row.freshState !== "stale") return [];
  // Code signals first: a missing file is a sharper warning than age.
  const order = ["missing-path", "moved-path", "missing-symbol", "past-date", "old", "duplicate", "never-recalled"];
  return parseFreshnessDetails(row.freshSignals).signals.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)).map((signal) => signal.message.replace(/`/g, ""));
}
