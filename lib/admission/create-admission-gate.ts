/**
 * A bound on how much of one kind of work runs at once. Past `maxInFlight` a request waits in a
 * short first-in-first-out queue; when the queue is full, or the wait would exceed `maxWaitMs`,
 * it is refused at once with a hint of when to retry. Overload then costs the client one quick
 * refusal instead of a connection that times out after 30 s (issue 11).
 */
export type AdmissionGateOptions = {
  maxInFlight: number;
  maxQueued: number;
  maxWaitMs: number;
};

export type AdmissionDecision =
  | { isAdmitted: true; waitedMs: number; release: () => void }
  | { isAdmitted: false; reason: "queue_full" | "wait_timeout" | "client_gone"; retryAfterSeconds: number };

export type AdmissionGate = {
  /** Waits for a slot (or refuses); an admitted caller must call `release` exactly once. */
  admit: (signal?: AbortSignal) => Promise<AdmissionDecision>;
  stats: () => { inFlight: number; queued: number };
};

type Waiter = { grant: () => void };

// Seed for the service-time estimate before anything finished: a typical read takes ~100 ms.
const INITIAL_SERVICE_MS = 100;
const SMOOTHING = 0.2;

export function createAdmissionGate(options: AdmissionGateOptions): AdmissionGate {
  const { maxInFlight, maxQueued, maxWaitMs } = options;
  const queue: Waiter[] = [];
  let inFlight = 0;
  let averageServiceMs = INITIAL_SERVICE_MS;

  // How long until the work ahead (running and queued) drains at the observed pace; at least 1 s.
  const retryAfterSeconds = () => Math.max(1, Math.ceil(((inFlight + queue.length) * averageServiceMs) / maxInFlight / 1000));

  const startSlot = (enqueuedAt: number): AdmissionDecision => {
    inFlight += 1;
    const startedAt = Date.now();
    let isReleased = false;
    const release = () => {
      if (isReleased) return;
      isReleased = true;
      averageServiceMs += SMOOTHING * (Date.now() - startedAt - averageServiceMs);
      inFlight -= 1;
      queue.shift()?.grant();
    };
    return { isAdmitted: true, waitedMs: startedAt - enqueuedAt, release };
  };

  const admit = (signal?: AbortSignal): Promise<AdmissionDecision> => {
    const enqueuedAt = Date.now();
    if (signal?.aborted) return Promise.resolve({ isAdmitted: false, reason: "client_gone", retryAfterSeconds: 1 });
    if (inFlight < maxInFlight && queue.length === 0) return Promise.resolve(startSlot(enqueuedAt));
    if (queue.length >= maxQueued) return Promise.resolve({ isAdmitted: false, reason: "queue_full", retryAfterSeconds: retryAfterSeconds() });

    return new Promise((resolve) => {
      const leave = (reason: "wait_timeout" | "client_gone") => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        cleanUp();
        resolve({ isAdmitted: false, reason, retryAfterSeconds: retryAfterSeconds() });
      };
      const onAbort = () => leave("client_gone");
      const timer = setTimeout(() => leave("wait_timeout"), maxWaitMs);
      const cleanUp = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        grant: () => {
          cleanUp();
          resolve(startSlot(enqueuedAt));
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(waiter);
    });
  };

  return { admit, stats: () => ({ inFlight, queued: queue.length }) };
}
