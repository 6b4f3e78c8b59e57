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

export function thresholdFor(type: string | null, thresholds: StaleThresholds = DEFAULT_THRESHOLDS): AgeThreshold {
  return thresholds[type ?? "untyped"] ?? thresholds.untyped ?? DEFAULT_THRESHOLDS.untyped!;
}
