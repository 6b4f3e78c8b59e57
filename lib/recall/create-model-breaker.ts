import type { ModelFailure } from "./model";

/**
 * R6 on a server: a recall waiting on the model holds one of the few recall slots (admission
 * control). When the model API hung, recalls without a deadline of their own held every slot for
 * the whole model deadline, and the prompt hook's recalls, which the local ranker answers in
 * milliseconds, queued behind them until they were refused with 503. The breaker decides, per
 * recall, whether it may wait on the model at all:
 * - at most `maxWaiting` recalls wait on the model at once (one slot fewer than the bound), so a
 *   slot is always left for recalls the local ranker answers;
 * - after the model failed (or missed a deadline a healthy model meets), recall skips it for
 *   `coolDownMs`; then one recall at a time tries it again, and an answer ends the pause.
 */
export type ModelBreakerOptions = {
  coolDownMs: number;
  maxWaiting: number;
  /** Milliseconds since some fixed point; tests pass their own clock. */
  now?: () => number;
};

export type ModelPass =
  /** Call `leave` exactly once with how the call ended (`other`: an error that is not the model's). */
  | { isAllowed: true; leave: (outcome: CallOutcome) => void }
  /** The fallback reason, starting with `model-paused` or `model-busy`. */
  | { isAllowed: false; fallbackReason: string };

export type CallOutcome = "answered" | ModelFailure | "other";

export type ModelBreaker = {
  /** `deadlineMs`: the call's deadline, to tell a hung model from a caller in a hurry. */
  enter: (deadlineMs: number) => ModelPass;
};

/**
 * A timeout is evidence against the model only when the deadline was one a healthy model meets:
 * the prompt hook asks for a few hundred milliseconds, which a healthy model often misses.
 */
export const MIN_TELLING_DEADLINE_MS = 2_000;

// Not the model's health: the caller left, one answer was bad, or our own code threw.
const NEUTRAL_OUTCOMES: ReadonlySet<CallOutcome> = new Set(["aborted", "malformed-answer", "other"]);

export function createModelBreaker(options: ModelBreakerOptions): ModelBreaker {
  const now = options.now ?? Date.now;
  let waiting = 0;
  // 0: the model is asked. Otherwise the time from which one recall may try it again.
  let pausedUntil = 0;
  let lastFailure: { failure: Exclude<CallOutcome, "answered">; at: number } | null = null;
  let isTrialRunning = false;

  const describePause = (at: number): string => {
    const failure = lastFailure ? `The recall model failed ${Math.round((at - lastFailure.at) / 1000)} s ago (${lastFailure.failure}).` : "The recall model failed.";
    const retry = at < pausedUntil ? `it is tried again in ${Math.ceil((pausedUntil - at) / 1000)} s` : "another recall is trying it again now";
    return `model-paused: ${failure} The local ranker answers until ${retry}.`;
  };

  const enter = (deadlineMs: number): ModelPass => {
    const at = now();
    const isPaused = pausedUntil > 0;
    if (isPaused && (at < pausedUntil || isTrialRunning)) return { isAllowed: false, fallbackReason: describePause(at) };
    if (waiting >= options.maxWaiting) {
      return { isAllowed: false, fallbackReason: `model-busy: ${waiting} recalls are already waiting on the model. The local ranker answered this one.` };
    }
    const isTrial = isPaused;
    if (isTrial) isTrialRunning = true;
    waiting += 1;
    let hasLeft = false;
    const leave = (outcome: CallOutcome) => {
      if (hasLeft) return;
      hasLeft = true;
      waiting -= 1;
      if (isTrial) isTrialRunning = false;
      if (outcome === "answered") pausedUntil = 0;
      else if (isTelling(outcome, deadlineMs)) {
        lastFailure = { failure: outcome, at: now() };
        pausedUntil = lastFailure.at + options.coolDownMs;
      }
    };
    return { isAllowed: true, leave };
  };

  return { enter };
}

function isTelling(outcome: Exclude<CallOutcome, "answered">, deadlineMs: number): boolean {
  if (NEUTRAL_OUTCOMES.has(outcome)) return false;
  return outcome !== "timeout" || deadlineMs >= MIN_TELLING_DEADLINE_MS;
}
