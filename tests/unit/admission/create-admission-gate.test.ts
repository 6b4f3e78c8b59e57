import { describe, expect, it } from "vitest";
import { createAdmissionGate, type AdmissionDecision } from "@/lib/admission/create-admission-gate";

function admitted(decision: AdmissionDecision) {
  if (!decision.isAdmitted) throw new Error(`expected admission, got ${decision.reason}`);
  return decision;
}

describe("createAdmissionGate", () => {
  it("admits up to the bound at once, queues a few more and refuses the rest without waiting", async () => {
    const gate = createAdmissionGate({ maxInFlight: 2, maxQueued: 1, maxWaitMs: 10_000 });
    const first = admitted(await gate.admit());
    admitted(await gate.admit());
    const queued = gate.admit();
    const startedAt = Date.now();
    const refused = await gate.admit();
    expect(Date.now() - startedAt).toBeLessThan(50);
    expect(refused).toMatchObject({ isAdmitted: false, reason: "queue_full" });
    expect(refused.isAdmitted === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(gate.stats()).toEqual({ inFlight: 2, queued: 1 });

    first.release();
    admitted(await queued);
    expect(gate.stats()).toEqual({ inFlight: 2, queued: 0 });
  });

  it("hands freed slots to waiters in arrival order", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxQueued: 5, maxWaitMs: 10_000 });
    const holder = admitted(await gate.admit());
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      gate.admit().then((decision) => {
        order.push(n);
        admitted(decision).release();
      }),
    );
    holder.release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("refuses a waiter whose wait passes the limit, and frees its queue place", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxQueued: 1, maxWaitMs: 30 });
    admitted(await gate.admit());
    const startedAt = Date.now();
    const decision = await gate.admit();
    expect(decision).toMatchObject({ isAdmitted: false, reason: "wait_timeout" });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(25);
    expect(gate.stats()).toEqual({ inFlight: 1, queued: 0 });
  });

  it("drops a waiter whose client went away, and refuses one that is already gone", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxQueued: 2, maxWaitMs: 10_000 });
    const holder = admitted(await gate.admit());
    const controller = new AbortController();
    const waiting = gate.admit(controller.signal);
    controller.abort();
    expect(await waiting).toMatchObject({ isAdmitted: false, reason: "client_gone" });
    expect(gate.stats().queued).toBe(0);
    expect(await gate.admit(AbortSignal.abort())).toMatchObject({ isAdmitted: false, reason: "client_gone" });
    holder.release();
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("frees the slot when the admitted work fails, and a second release changes nothing", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxQueued: 0, maxWaitMs: 10_000 });
    const failingWork = async () => {
      const decision = admitted(await gate.admit());
      try {
        throw new Error("boom");
      } finally {
        decision.release();
        decision.release();
      }
    };
    await expect(failingWork()).rejects.toThrow("boom");
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
    const next = admitted(await gate.admit());
    expect(await gate.admit()).toMatchObject({ isAdmitted: false, reason: "queue_full" });
    next.release();
  });
});
