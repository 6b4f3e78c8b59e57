import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureProjectFreshness } from "./load-project-freshness";
import type { FreshnessState, StaleSignal } from "./stale-signal";
import { parseFreshnessDetails, readFreshnessState } from "./stored-freshness";

export type MemoryFreshnessDetail = {
  state: FreshnessState | null;
  signals: StaleSignal[];
  notChecked: string[];
  notes: string[];
  codeCommit: string | null;
  verifications: { userName: string; at: Date; commit: string | null }[];
};

/** One team memory's staleness verdict and its "still true" records, for its page (two small queries). */
export async function loadMemoryFreshness(config: Config, db: Db, projectId: string, path: string): Promise<MemoryFreshnessDetail> {
  const run = await ensureProjectFreshness(config, db, projectId);
  const [row, verifications] = await Promise.all([
    db.storeMemory.findUnique({ where: { projectId_path: { projectId, path } }, select: { freshState: true, freshSignals: true } }),
    db.memoryVerification.findMany({ where: { projectId, path }, orderBy: { at: "desc" }, take: 20, select: { userName: true, at: true, commit: true } }),
  ]);
  const details = parseFreshnessDetails(row?.freshSignals ?? "{}");
  const state = readFreshnessState(row?.freshState ?? null);
  return { state, signals: details.signals, notChecked: state === null ? ["not checked: this file has not been checked yet"] : details.notChecked, notes: details.notes, codeCommit: run?.codeCommit ?? null, verifications };
}
