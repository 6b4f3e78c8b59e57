import { randomUUID } from "node:crypto";
import { readlinkSync } from "node:fs";
import os from "node:os";
import { asDate } from "../db/direct-reads";
import { directReadsOf, type Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import { log } from "../log";

export type StoreLockOptions = {
  /** How long a lease lasts without renewal: a holder that stopped blocks others at most this long. */
  leaseMs?: number;
  /** How long to wait for another holder before giving up with STORE_UNAVAILABLE. */
  waitMs?: number;
};

/** What the work can do with its lease: confirm it still holds it right before a step that must not run twice. */
export type HeldLease = {
  /** Renews the lease now; throws STORE_UNAVAILABLE when another holder took it over. */
  confirm: () => Promise<void>;
};

export type TryLeaseResult<T> = { status: "ran"; value: T } | { status: "held"; holder: string };

// Short, and renewed every third of it by a heartbeat while the work runs: a holder that stopped
// heart-beating is taken over within LEASE_MS, and a holder on this machine whose process is gone
// at once (docs/store.md, The lease).
const DEFAULT_LEASE_MS = 6_000;
const DEFAULT_WAIT_MS = 120_000;
const FIRST_BACKOFF_MS = 15;
const MAX_BACKOFF_MS = 50;

/**
 * Runs `work` while holding the named lease in the StoreLock table, so that only one app instance
 * at a time writes the store, whichever instance and database (SQLite or PostgreSQL). The lease is
 * taken atomically (insert, or take over an expired or orphaned row), renewed while work runs and
 * released after. Callers in one process queue up first, so only one of them polls the database.
 */
export async function withStoreLock<T>(db: Db, name: string, work: (lease: HeldLease) => Promise<T>, options: StoreLockOptions = {}): Promise<T> {
  return inProcessQueue(db, name, async () => {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const holder = newHolderId();
    await acquire(db, { name, holder, leaseMs, waitMs: options.waitMs ?? DEFAULT_WAIT_MS });
    return runHolding(db, { name, holder, leaseMs }, work);
  });
}

/**
 * Runs `work` under the named lease only if it is free now (absent, expired, or left by a process
 * that is gone); otherwise answers who holds it, without waiting. For claims such as "this
 * instance is committing proposal X", whose absence means the worker is gone.
 */
export async function tryWithLease<T>(db: Db, name: string, work: (lease: HeldLease) => Promise<T>, options: Pick<StoreLockOptions, "leaseMs"> = {}): Promise<TryLeaseResult<T>> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const holder = newHolderId();
  const current = await tryAcquire(db, { name, holder, leaseMs, waitMs: 0 });
  if (current !== null) return { status: "held", holder: current };
  return { status: "ran", value: await runHolding(db, { name, holder, leaseMs }, work) };
}

type Held = { name: string; holder: string; leaseMs: number };

async function runHolding<T>(db: Db, held: Held, work: (lease: HeldLease) => Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => void renew(db, held).catch(() => undefined), Math.max(held.leaseMs / 3, 10));
  heartbeat.unref();
  const lease: HeldLease = {
    confirm: async () => {
      if (!(await renew(db, held))) {
        throw new AppError("STORE_UNAVAILABLE", "This server paused for too long and another instance took over the team store; nothing was pushed, try again.");
      }
    },
  };
  try {
    return await work(lease);
  } finally {
    clearInterval(heartbeat);
    await deleteLease(db, held.name, held.holder).catch((cause: unknown) => {
      // The lease then simply expires after leaseMs; the work itself is done.
      log("warn", "store_lock.release_failed", { name: held.name, error: errorName(cause) });
    });
  }
}

type AcquireOptions = Held & { waitMs: number };

async function acquire(db: Db, options: AcquireOptions): Promise<void> {
  const startedAt = Date.now();
  const deadline = startedAt + options.waitMs;
  let hasClaimedNext = false;
  for (let attempt = 0; ; attempt++) {
    // Looked at first, on the driver: an insert that meets the holder's row fails, and a failed
    // query costs a PostgreSQL connection (the pool drops it, and the next one authenticates again).
    const { lease, next } = await peekLease(db, options.name);
    const isAnotherNext = next !== undefined && next.holder !== options.holder && next.expiresAt > new Date() && !isGoneLocalHolder(next.holder);
    if (!isAnotherNext && isTakeable(lease) && (await tryAcquire(db, options)) === null) {
      if (hasClaimedNext) await deleteLease(db, nextName(options.name), options.holder).catch(() => undefined);
      return;
    }
    if (Date.now() - startedAt >= CLAIM_NEXT_AFTER_MS) hasClaimedNext = (await claimNext(db, options, next)) || hasClaimedNext;
    if (Date.now() >= deadline) {
      throw new AppError(
        "STORE_UNAVAILABLE",
        "Another teammem instance has been writing the team store for too long; try again in a minute.",
        { details: { lock: options.name } },
      );
    }
    await sleep(jitter(Math.min(FIRST_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS)));
  }
}

type LeaseRow = { holder: string; expiresAt: Date };

/** The lease and its next-turn claim as they are now (either may be absent). */
async function peekLease(db: Db, name: string): Promise<{ lease?: LeaseRow; next?: LeaseRow }> {
  try {
    const rows = await directReadsOf(db).all<{ name: string; holder: string; expiresAt: unknown }>(`SELECT "name", "holder", "expiresAt" FROM "StoreLock" WHERE "name" IN (?, ?)`, [name, nextName(name)]);
    const row = (wanted: string): LeaseRow | undefined => {
      const found = rows.find((candidate) => candidate.name === wanted);
      return found ? { holder: found.holder, expiresAt: asDate(found.expiresAt) ?? new Date(0) } : undefined;
    };
    return { lease: row(name), next: row(nextName(name)) };
  } catch (cause) {
    throw lockDatabaseError(cause);
  }
}

/** Free, expired, or left by a process on this machine that is gone. */
function isTakeable(lease: LeaseRow | undefined): boolean {
  return lease === undefined || lease.expiresAt < new Date() || isGoneLocalHolder(lease.holder);
}

// Turns: a holder that releases the lease and at once wants it again (its next batch) would
// otherwise win every time against an instance polling with backoff, which then waited seconds.
// A waiter that has waited CLAIM_NEXT_AFTER_MS claims "<name>:next" (short-lived); anyone else
// wanting the lease lets it go first. Not sooner: strict turns (or after 250 ms) made most batches
// switch instances (a fetch and a catch-up each time), and two instances approved a quarter less.
const NEXT_CLAIM_MS = 1_000;
const CLAIM_NEXT_AFTER_MS = 1_000;

function nextName(name: string): string {
  return `${name}:next`;
}

/** Claims the next turn, unless another waiter holds a live claim; best effort. True when claimed. */
async function claimNext(db: Db, { name, holder }: AcquireOptions, current: LeaseRow | undefined): Promise<boolean> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + NEXT_CLAIM_MS);
  try {
    if (current === undefined) return await insertLease(db, nextName(name), holder, expiresAt);
    if (current.holder !== holder && current.expiresAt > now && !isGoneLocalHolder(current.holder)) return false;
    const { count } = await db.storeLock.updateMany({ where: { name: nextName(name), OR: [{ holder }, { expiresAt: { lt: now } }] }, data: { holder, expiresAt } });
    return count === 1;
  } catch {
    // The database hiccuped: plain polling still works.
    return false;
  }
}

/**
 * Inserts the lease row unless one exists: true when inserted. Without a failing statement (a
 * unique violation would cost the PostgreSQL connection) and in SQL that skips Prisma's query
 * compiler (~2.6 → ~0.9 ms of the server's thread); the driver writes the date as Prisma does.
 */
async function insertLease(db: Db, name: string, holder: string, expiresAt: Date): Promise<boolean> {
  return (await db.$executeRaw`INSERT INTO "StoreLock" ("name", "holder", "expiresAt") VALUES (${name}, ${holder}, ${expiresAt}) ON CONFLICT ("name") DO NOTHING`) === 1;
}

async function deleteLease(db: Db, name: string, holder: string): Promise<void> {
  await db.$executeRaw`DELETE FROM "StoreLock" WHERE "name" = ${name} AND "holder" = ${holder}`;
}

/** null when taken; otherwise the holder that keeps it. */
async function tryAcquire(db: Db, { name, holder, leaseMs }: AcquireOptions): Promise<string | null> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + leaseMs);
  try {
    if (await insertLease(db, name, holder, expiresAt)) return null;
  } catch (cause) {
    throw lockDatabaseError(cause);
  }
  try {
    const { lease: current } = await peekLease(db, name);
    if (!current) return tryAcquire(db, { name, holder, leaseMs, waitMs: 0 }); // released meanwhile
    const isOrphaned = current.expiresAt < now || isGoneLocalHolder(current.holder);
    if (!isOrphaned) return current.holder;
    // Compare-and-swap on the holder id (unique per acquisition): one UPDATE with the condition
    // in WHERE is atomic on SQLite and PostgreSQL, so two takers cannot both see count 1, and a
    // holder that renewed meanwhile (its expiry moved past now) keeps its lease.
    const stillOrphaned = isGoneLocalHolder(current.holder) ? {} : { expiresAt: { lt: now } };
    const { count } = await db.storeLock.updateMany({ where: { name, holder: current.holder, ...stillOrphaned }, data: { holder, expiresAt } });
    if (count === 1) {
      log("info", "store_lock.taken_over", { name, reason: current.expiresAt < now ? "expired" : "holder process gone" });
      return null;
    }
    return current.holder;
  } catch (cause) {
    throw lockDatabaseError(cause);
  }
}

/** True while this holder still has the lease (the expiry moved forward). */
async function renew(db: Db, { name, holder, leaseMs }: Held): Promise<boolean> {
  try {
    const count = await db.$executeRaw`UPDATE "StoreLock" SET "expiresAt" = ${new Date(Date.now() + leaseMs)} WHERE "name" = ${name} AND "holder" = ${holder}`;
    // Losing the lease is survivable: pushes are fast-forward only, so a second writer cannot
    // overwrite this one's commit; the caller confirms before pushing and retries.
    if (count === 0) log("warn", "store_lock.lost", { name });
    return count === 1;
  } catch (cause) {
    log("warn", "store_lock.renew_failed", { name, error: errorName(cause) });
    throw lockDatabaseError(cause);
  }
}

// ---------------------------------------------------------------------------------------------
// Holder ids say who holds a lease: host | pid namespace | pid | process start | random. On the
// same host and pid namespace, a holder whose process no longer runs (a crash, or this instance
// restarting) is taken over at once; any other holder only when its lease expired.

const SEPARATOR = "|";
/** When this process started, as written into its holder ids (an earlier run of the same pid has another). */
export const PROCESS_STARTED_AT = String(Date.now() - Math.round(process.uptime() * 1000));
const PID_NAMESPACE = readPidNamespace();

function newHolderId(): string {
  return [os.hostname(), PID_NAMESPACE, String(process.pid), PROCESS_STARTED_AT, randomUUID().slice(0, 8)].join(SEPARATOR);
}

/** Exported for tests: is this holder id a process on this machine that no longer runs? */
export function isGoneLocalHolder(holder: string): boolean {
  const [host, namespace, pidText, startedAt, random] = holder.split(SEPARATOR);
  // Without a known pid namespace two containers could share a host name and see each other's
  // processes as absent: then only expiry counts.
  if (random === undefined || PID_NAMESPACE === "" || host !== os.hostname() || namespace !== PID_NAMESPACE) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // The same pid with another start time is an earlier run of this process (pid 1 in a container).
  if (pid === process.pid) return startedAt !== PROCESS_STARTED_AT;
  try {
    process.kill(pid, 0);
    return false; // it runs (or the pid was reused: then the lease simply expires)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function readPidNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/pid").replaceAll(SEPARATOR, "");
  } catch {
    return "";
  }
}

const queues = new WeakMap<Db, Map<string, Promise<unknown>>>();

function inProcessQueue<T>(db: Db, name: string, work: () => Promise<T>): Promise<T> {
  const byName = queues.get(db) ?? new Map<string, Promise<unknown>>();
  queues.set(db, byName);
  const previous = byName.get(name) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  const settled = next.catch(() => undefined);
  byName.set(name, settled);
  void settled.then(() => {
    if (byName.get(name) === settled) byName.delete(name);
  });
  return next;
}

function lockDatabaseError(cause: unknown): AppError {
  if (isAppError(cause)) return cause;
  return new AppError(
    "DATABASE_UNAVAILABLE",
    "The team store lock could not be read from the database: check DATABASE_URL and run `npx teammem doctor`.",
    { cause },
  );
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown";
}

/** Between 0.5x and 1.5x: instances that collided once do not collide again in step. */
export function jitter(ms: number): number {
  return Math.round(ms * (0.5 + Math.random()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
