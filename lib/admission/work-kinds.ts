/**
 * The kinds of work admitted separately, so a flood of one (agents recalling on every prompt)
 * cannot starve another (a lead approving, someone signing in).
 */
export const WORK_KINDS = ["read", "recall", "write", "approve", "auth"] as const;

export type WorkKind = (typeof WORK_KINDS)[number];

export type AdmissionSettings = {
  /** Requests of each kind running at once in this server process. */
  maxInFlight: Record<WorkKind, number>;
  /** Requests of each kind waiting for a slot; one more is refused with 503 at once. */
  maxQueued: number;
  /** The longest a request waits for a slot before it is refused with 503. */
  maxWaitMs: number;
};
