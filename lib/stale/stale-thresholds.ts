import { parseJsonOrNull } from "../parse-json";

/** After how many days a memory of a type is aging, and when it counts as old (null: never). */
export type AgeThreshold = { agingAfterDays: number | null; oldAfterDays: number | null };

export type StaleThresholds = Record<string, AgeThreshold>;

/**
 * Defaults per type. A `project` note about this sprint rots in weeks; a `reference` (where a
 * dashboard lives) in months; a `feedback` rule ("never force-push main") does not rot with age
 * (its citations still get checked); `user` memories never enter the team store.
 */
export const DEFAULT_THRESHOLDS: StaleThresholds = {
  project: { agingAfterDays: 14, oldAfterDays: 30 },
  reference: { agingAfterDays: 60, oldAfterDays: 120 },
  feedback: { agingAfterDays: null, oldAfterDays: null },
  user: { agingAfterDays: null, oldAfterDays: null },
  untyped: { agingAfterDays: 60, oldAfterDays: 120 },
};

/** A memory older than this and chosen by no recall in as many days is "never recalled". */
export const NEVER_RECALLED_DAYS = 30;

/** A relative date ("next Thursday") in a memory older than this has lost its meaning. */
export const RELATIVE_DATE_DAYS = 7;

/** The types a project may set its own age limit for (`user` memories never enter the store). */
export const ADJUSTABLE_TYPES = ["project", "reference", "feedback", "untyped"] as const;

/** Per type, the days after which a memory is old; null: never. What a project stores and shows. */
export type StaleAfterDays = Record<(typeof ADJUSTABLE_TYPES)[number], number | null>;

/** The defaults' old-after days, as a project's settings show them before any change. */
export const DEFAULT_STALE_AFTER_DAYS: StaleAfterDays = Object.fromEntries(
  ADJUSTABLE_TYPES.map((type) => [type, DEFAULT_THRESHOLDS[type]!.oldAfterDays]),
) as StaleAfterDays;

/**
 * A project's stored overrides (JSON, or null) merged over the defaults. A memory starts aging
 * at half its limit, as the defaults do. Unknown or malformed entries are ignored: the column is
 * only written after validation, and a bad value must never stop a check.
 */
export function readStaleAfterDays(stored: string | null | undefined): StaleAfterDays {
  const days = { ...DEFAULT_STALE_AFTER_DAYS };
  const parsed = stored ? parseJsonOrNull(stored) : null;
  if (typeof parsed !== "object" || parsed === null) return days;
  for (const type of ADJUSTABLE_TYPES) {
    const value = (parsed as Record<string, unknown>)[type];
    if (value === null || (typeof value === "number" && Number.isInteger(value) && value > 0)) days[type] = value;
  }
  return days;
}

/** The thresholds a project's checks use. */
export function thresholdsFromDays(days: StaleAfterDays): StaleThresholds {
  const thresholds: StaleThresholds = { ...DEFAULT_THRESHOLDS };
  for (const type of ADJUSTABLE_TYPES) {
    const old = days[type];
    thresholds[type] = { agingAfterDays: old === null ? null : Math.max(1, Math.round(old / 2)), oldAfterDays: old };
  }
  return thresholds;
}

export function thresholdFor(type: string | null, thresholds: StaleThresholds = DEFAULT_THRESHOLDS): AgeThreshold {
  return thresholds[type ?? "untyped"] ?? thresholds.untyped ?? DEFAULT_THRESHOLDS.untyped!;
}
