import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { log } from "../log";

export type StoreLockOptions = {
  /** How long a lease lasts without renewal: a crashed holder blocks others at most this long. */
  leaseMs?: number;
  /** How long to wait for another holder before giving up with STORE_UNAVAILABLE. */
  waitMs?: number;
};

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_WAIT_MS = 120_000;
const FIRST_BACKOFF_MS = 15;
const MAX_BACKOFF_MS = 100;

/**
 * Runs `work` while holding the named lease in the StoreLock table, so that only one app instance
 * at a time writes the store, whichever instance and database (SQLite or PostgreSQL). The lease is
 * taken atomically (insert, or take over an expired row), renewed while work runs and released
 * after. Callers in one process queue up first, so only one of them polls the database.
 */
export async function withStoreLock<T>(db: Db, name: string, work: () => Promise<T>, options: StoreLockOptions = {}): Promise<T> {
  return inProcessQueue(db, name, () => withLease(db, name, work, options));
}

async function withLease<T>(db: Db, name: string, work: () => Promise<T>, options: StoreLockOptions): Promise<T> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const holder = randomUUID();
  await acquire(db, { name, holder, leaseMs, waitMs: options.waitMs ?? DEFAULT_WAIT_MS });
  const renewal = setInterval(() => void renew(db, name, holder, leaseMs), Math.max(leaseMs / 3, 10));
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await db.storeLock.deleteMany({ where: { name, holder } }).catch((cause: unknown) => {
      // The lease then simply expires after leaseMs; the work itself is done.
      log("warn", "store_lock.release_failed", { name, error: errorName(cause) });
    });
  }
}

type AcquireOptions = { name: string; holder: string; leaseMs: number; waitMs: number };

async function acquire(db: Db, options: AcquireOptions): Promise<void> {
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 0; ; attempt++) {
    if (await tryAcquire(db, options)) return;
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

async function tryAcquire(db: Db, { name, holder, leaseMs }: AcquireOptions): Promise<boolean> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + leaseMs);
  try {
    await db.storeLock.create({ data: { name, holder, expiresAt } });
    return true;
  } catch (cause) {
    if (!isUniqueViolation(cause)) throw lockDatabaseError(cause);
  }
  // The row exists: take it over only if its lease ran out. One UPDATE with the condition in
  // WHERE is atomic on both SQLite and PostgreSQL, so two takers cannot both see count 1.
  try {
    const { count } = await db.storeLock.updateMany({ where: { name, expiresAt: { lt: now } }, data: { holder, expiresAt } });
    return count === 1;
  } catch (cause) {
    throw lockDatabaseError(cause);
  }
}

async function renew(db: Db, name: string, holder: string, leaseMs: number): Promise<void> {
  try {
    const { count } = await db.storeLock.updateMany({ where: { name, holder }, data: { expiresAt: new Date(Date.now() + leaseMs) } });
    // Losing the lease is survivable: pushes are fast-forward only, so a second writer cannot
    // overwrite this one's commit; it only costs a retry.
    if (count === 0) log("warn", "store_lock.lost", { name });
  } catch (cause) {
    log("warn", "store_lock.renew_failed", { name, error: errorName(cause) });
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

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "P2002";
}

function lockDatabaseError(cause: unknown): AppError {
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
