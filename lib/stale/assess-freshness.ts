import { memoryAgeDays } from "../memdir/age";
import type { CheckResult } from "./check-result";
import { SIGNAL_WEIGHT, STALE_SCORE, type FreshnessState, type StaleSignal } from "./stale-signal";
import { DEFAULT_THRESHOLDS, NEVER_RECALLED_DAYS, RELATIVE_DATE_DAYS, thresholdFor, type StaleThresholds } from "./stale-thresholds";

export type DuplicateOf = { path: string; name: string | null; similarity: number };

export type AssessOptions = {
  type: string | null;
  lastCommitAt: Date;
  now: Date;
  check: CheckResult;
  /** Why the code could not be checked (no repository, unreachable), or null when it was. */
  codeProblem: string | null;
  /** Whether a recall chose it in the last NEVER_RECALLED_DAYS days; null when no recall log is at hand. */
  wasRecalled: boolean | null;
  duplicateOf: DuplicateOf | null;
  thresholds?: StaleThresholds;
};

export type Assessment = { state: FreshnessState; score: number; signals: StaleSignal[]; notChecked: string[]; notes: string[] };

const MAX_SIGNALS_PER_KIND_IN_SCORE = 3;

/**
 * One memory's state from its cached check and the clock. The score adds the weight of each
 * signal (a few per kind at most) and a little for age, so a list sorted by it shows the
 * memories most likely wrong first. A check that could not run is listed as "not checked", and a
 * memory whose citations could not be checked is never called fresh.
 */
export function assessFreshness(options: AssessOptions): Assessment {
  const { check, now } = options;
  const ageDays = memoryAgeDays(options.lastCommitAt, now);
  const threshold = thresholdFor(options.type, options.thresholds ?? DEFAULT_THRESHOLDS);
  const signals: StaleSignal[] = [...(check.code?.signals ?? [])];
  const notChecked: string[] = [];
  if (threshold.oldAfterDays !== null && ageDays >= threshold.oldAfterDays) {
    signals.push({ kind: "old", message: `Last changed ${ageDays} days ago; ${options.type ?? "untyped"} memories are old after ${threshold.oldAfterDays} days.`, evidence: { ageDays, oldAfterDays: threshold.oldAfterDays } });
  }
  signals.push(...pastDateSignals(check, ageDays, now));
  if (options.wasRecalled === null) notChecked.push("not checked: recall history (no recall log here)");
  else if (!options.wasRecalled && ageDays >= NEVER_RECALLED_DAYS) {
    signals.push({ kind: "never-recalled", message: `No recall chose it in the last ${NEVER_RECALLED_DAYS} days.`, evidence: { days: NEVER_RECALLED_DAYS } });
  }
  if (options.duplicateOf) {
    const other = options.duplicateOf;
    signals.push({ kind: "duplicate", message: `Nearly the same as the newer \`${other.path}\`${other.name ? ` (${other.name})` : ""}.`, evidence: { ...other } });
  }
  const hasUncheckedCitations = check.code === null && check.citationCount > 0;
  if (hasUncheckedCitations) notChecked.push(`not checked: ${check.citationCount} code citation${check.citationCount === 1 ? "" : "s"} (${options.codeProblem ?? "no code repository"})`);
  if (check.isTruncated) notChecked.push("not checked: citations past the first 200 of a kind");
  const signalScore = scoreSignals(signals);
  const isAging = signalScore > 0 || hasUncheckedCitations || check.isTruncated || (threshold.agingAfterDays !== null && ageDays >= threshold.agingAfterDays);
  const state: FreshnessState = signalScore >= STALE_SCORE ? "stale" : isAging ? "aging" : "fresh";
  // Age breaks ties within a state, without moving a memory into another.
  const score = signalScore + Math.min(9, Math.floor(ageDays / 30));
  return { state, score, signals, notChecked, notes: check.code?.notes ?? [] };
}

function pastDateSignals(check: CheckResult, ageDays: number, now: Date): StaleSignal[] {
  const today = now.toISOString().slice(0, 10);
  return check.claims.flatMap((claim): StaleSignal[] => {
    if (claim.kind === "deadline") {
      if (claim.date >= today) return []; // a date still ahead is fine
      return [{ kind: "past-date", message: `"${claim.phrase}" (line ${claim.line}) has passed.`, evidence: { ...claim } }];
    }
    if (ageDays < RELATIVE_DATE_DAYS) return [];
    return [{ kind: "past-date", message: `"${claim.phrase}" (line ${claim.line}) was written ${ageDays} days ago; it meant ${claim.date}.`, evidence: { ...claim } }];
  });
}

function scoreSignals(signals: StaleSignal[]): number {
  const perKind = new Map<string, number>();
  let score = 0;
  for (const signal of signals) {
    const seen = perKind.get(signal.kind) ?? 0;
    perKind.set(signal.kind, seen + 1);
    if (seen < MAX_SIGNALS_PER_KIND_IN_SCORE) score += SIGNAL_WEIGHT[signal.kind];
  }
  return score;
}
