import { spawnSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { AppError } from "@/lib/errors";
import { isGoneLocalHolder, PROCESS_STARTED_AT, tryWithLease, withStoreLock } from "@/lib/store/store-lock";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";

// The store lease on one SQLite file shared by two clients: who may take a lease over, and when.
let root: string;
let dbA: Db;
let dbB: Db;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-lease-"));
  const config = loadConfig({ TEAMMEM_DATA_DIR: root, TEAMMEM_CLAUDE_HOME: "" }, root);
  await applyMigrations(config);
  [dbA, dbB] = [createDb(config), createDb(config)];
}, 60_000);

afterAll(async () => {
  await Promise.all([dbA?.$disconnect(), dbB?.$disconnect()]);
  if (root) await rm(root, { recursive: true, force: true });
});

const PID_NAMESPACE = readlinkSync("/proc/self/ns/pid");
// The lib computes its start time once; recomputing it here can differ by a millisecond.
const STARTED = PROCESS_STARTED_AT;
const holderOn = (host: string, pid: number, startedAt = "1700000000000") => [host, PID_NAMESPACE, String(pid), startedAt, "abcd1234"].join("|");

/** A pid that ran on this machine and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid;
}

let counter = 0;
async function leaseHeldBy(holder: string, expiresInMs: number): Promise<string> {
  const name = `lease-test-${counter++}`;
  await dbA.storeLock.create({ data: { name, holder, expiresAt: new Date(Date.now() + expiresInMs) } });
  return name;
}

async function timeToTake(name: string): Promise<number> {
  const started = performance.now();
  await withStoreLock(dbB, name, async () => undefined, { waitMs: 20_000 });
  return performance.now() - started;
}

describe("the store lease", () => {
  it("takes over at once a lease whose holder process on this machine is gone, long before it expires", async () => {
    const name = await leaseHeldBy(holderOn(os.hostname(), deadPid()), 60_000);
    expect(await timeToTake(name)).toBeLessThan(1_000);
    expect(await dbA.storeLock.count({ where: { name } })).toBe(0);
  });

  it("takes over at once the lease of an earlier run of this same process id (a restarted container's pid 1)", async () => {
    expect(isGoneLocalHolder(holderOn(os.hostname(), process.pid, "1"))).toBe(true);
    expect(isGoneLocalHolder(holderOn(os.hostname(), process.pid, STARTED))).toBe(false);
    const name = await leaseHeldBy(holderOn(os.hostname(), process.pid, "1"), 60_000);
    expect(await timeToTake(name)).toBeLessThan(1_000);
  });

  it("leaves a live holder's lease alone, on this machine or another, until it expires", async () => {
    expect(isGoneLocalHolder(holderOn(os.hostname(), process.ppid))).toBe(false);
    expect(isGoneLocalHolder(holderOn("another-host", deadPid()))).toBe(false);
    const live = await leaseHeldBy(holderOn(os.hostname(), process.ppid), 60_000);
    expect(await tryWithLease(dbB, live, async () => "ran")).toEqual({ status: "held", holder: holderOn(os.hostname(), process.ppid) });
    const remote = await leaseHeldBy(holderOn("another-host", deadPid()), 60_000);
    await expect(withStoreLock(dbB, remote, async () => "ran", { waitMs: 300 })).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "STORE_UNAVAILABLE");
    // A holder elsewhere that stopped heart-beating: taken over once its short lease ran out.
    const stopped = await leaseHeldBy(holderOn("another-host", 4242), 400);
    const waited = await timeToTake(stopped);
    expect(waited).toBeGreaterThan(200);
    expect(waited).toBeLessThan(3_000);
  });

  it("renews the lease while the work runs, so a long job keeps it past its length", async () => {
    const name = `lease-test-${counter++}`;
    let release = () => undefined as void;
    const held = withStoreLock(dbA, name, () => new Promise<void>((resolve) => (release = resolve)), { leaseMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // three lease lengths
    await expect(withStoreLock(dbB, name, async () => "ran", { waitMs: 300, leaseMs: 300 })).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "STORE_UNAVAILABLE");
    release();
    await held;
    expect(await dbA.storeLock.count({ where: { name } })).toBe(0);
  });

  it("refuses to go on (before a push) when another holder took the lease over meanwhile", async () => {
    const name = `lease-test-${counter++}`;
    const outcome = withStoreLock(dbA, name, async (lease) => {
      await dbB.storeLock.update({ where: { name }, data: { holder: holderOn("another-host", 1) } });
      await lease.confirm();
      return "pushed";
    });
    await expect(outcome).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "STORE_UNAVAILABLE");
    // The new holder's lease is left as it is.
    expect(await dbA.storeLock.findUnique({ where: { name } })).toMatchObject({ holder: holderOn("another-host", 1) });
  });

  it("takes turns: an instance waiting for the lease gets it before the holder's next turn", async () => {
    const name = `turns-${Math.random().toString(36).slice(2)}`;
    const order: string[] = [];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let round = 0; round < 3; round += 1) {
      const first = withStoreLock(dbA, name, async () => {
        order.push(`a${round}`);
        await pause(1_300);
      });
      await pause(40); // B is waiting by now, and has waited long enough to claim the next turn when A lets go
      const waiting = withStoreLock(dbB, name, async () => void order.push(`b${round}`));
      await first;
      // A wants it again the moment it let go; B has waited longer.
      await Promise.all([waiting, withStoreLock(dbA, name, async () => void order.push(`a${round}-again`))]);
    }
    expect(order).toEqual(["a0", "b0", "a0-again", "a1", "b1", "a1-again", "a2", "b2", "a2-again"]);
    expect(await dbA.storeLock.count({ where: { name: { startsWith: name } } })).toBe(0);
  });
});

// On PostgreSQL a failed statement costs its connection (the pool drops it, and the next one
// authenticates again): waiting for a held lease must not fail an insert at every poll.
describe.skipIf(!TEST_POSTGRES_URL)("the store lease on PostgreSQL", () => {
  it("waits for a held lease on the connections it has, without opening new ones", async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ TEAMMEM_DATA_DIR: root, TEAMMEM_CLAUDE_HOME: "", DATABASE_URL: database.url }, root);
    await applyMigrations(config);
    const [holder, waiter, observer] = [createDb(config), createDb(config), createDb(config)];
    const backends = async () =>
      new Set((await observer.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).map((row) => row.pid));
    try {
      const name = "lease-on-postgres";
      await withStoreLock(waiter, name, async () => undefined); // the waiter's connections, opened once
      let release = () => undefined as void;
      const held = withStoreLock(holder, name, () => new Promise<void>((resolve) => (release = resolve)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const before = await backends();
      const waiting = withStoreLock(waiter, name, async () => "ran");
      await new Promise((resolve) => setTimeout(resolve, 1_200)); // a few dozen polls
      const during = await backends();
      release();
      await held;
      expect(await waiting).toBe("ran");
      expect([...during].filter((pid) => !before.has(pid))).toEqual([]);
    } finally {
      await Promise.all([holder.$disconnect(), waiter.$disconnect(), observer.$disconnect()]);
      await database.drop();
    }
  }, 60_000);
});
