/** Why a memory may no longer be true. */
export type StaleSignalKind = "old" | "past-date" | "missing-path" | "moved-path" | "missing-symbol" | "never-recalled" | "duplicate";

export const STALE_SIGNAL_KINDS: readonly StaleSignalKind[] = ["old", "past-date", "missing-path", "moved-path", "missing-symbol", "never-recalled", "duplicate"];

/** One reason, in one line a person reads, with the facts behind it. */
export type StaleSignal = { kind: StaleSignalKind; message: string; evidence?: Record<string, unknown> };

export type FreshnessState = "fresh" | "aging" | "stale";

export const FRESHNESS_STATES: readonly FreshnessState[] = ["fresh", "aging", "stale"];

/** How each signal counts toward the score a list sorts by; a memory scoring STALE_SCORE or more is stale. */
export const SIGNAL_WEIGHT: Record<StaleSignalKind, number> = {
  "missing-path": 40,
  "moved-path": 30,
  "missing-symbol": 30,
  "past-date": 30,
  old: 25,
  duplicate: 20,
  "never-recalled": 10,
};

export const STALE_SCORE = 25;

/** Labels for pages and filters. */
export const SIGNAL_LABEL: Record<StaleSignalKind, string> = {
  old: "Old",
  "past-date": "Date has passed",
  "missing-path": "Cited path missing",
  "moved-path": "Cited path moved",
  "missing-symbol": "Cited symbol missing",
  "never-recalled": "Never recalled",
  duplicate: "Duplicate",
};

export function isStaleSignalKind(value: unknown): value is StaleSignalKind {
  return typeof value === "string" && (STALE_SIGNAL_KINDS as readonly string[]).includes(value);
}

export function isFreshnessState(value: unknown): value is FreshnessState {
  return typeof value === "string" && (FRESHNESS_STATES as readonly string[]).includes(value);
}
