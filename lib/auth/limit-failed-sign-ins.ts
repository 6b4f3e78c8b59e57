import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";

/**
 * Failed sign-ins per account (email) and per client (IP), counted in the database table
 * better-auth's own rate limiter uses, so every app instance shares one count. Successful
 * sign-ins never count: switching accounts a few times must not lock anyone out.
 */
export type SignInFailureLimit = {
  /**
   * Counts this attempt as a failure before its password is checked, then says how many seconds
   * until one may be tried again (0: go on). Counting first is what holds the limit for attempts
   * sent at the same instant: each sees the others' counts (checking first and counting after
   * let 8 of 12 simultaneous guesses through a limit of 5).
   */
  reserveAttempt(keys: SignInKeys): Promise<number>;
  /** Not a failure after all (a correct password, a body refused unread): its reservation is returned. */
  releaseAttempt(keys: SignInKeys, options: { clearAccount: boolean }): Promise<void>;
};

export type SignInKeys = { email: string | null; clientIp: string | null };

export type SignInFailureLimitOptions = { db: Db; maxFailuresPerAccount: number; windowSeconds: number };

/** One client (an office behind one address) may fail this many times more than one account. */
export const CLIENT_FAILURES_PER_ACCOUNT_FAILURE = 4;

// Prefixed so they never collide with better-auth's "<ip>|<path>" keys in the same table.
const ACCOUNT_PREFIX = "teammem-sign-in-failures:account:";
const CLIENT_PREFIX = "teammem-sign-in-failures:client:";

export function createSignInFailureLimit({ db, maxFailuresPerAccount, windowSeconds }: SignInFailureLimitOptions): SignInFailureLimit {
  const windowMs = windowSeconds * 1000;
  const limits = (keys: SignInKeys) => [
    ...(keys.email ? [{ key: ACCOUNT_PREFIX + normaliseEmail(keys.email), max: maxFailuresPerAccount }] : []),
    ...(keys.clientIp ? [{ key: CLIENT_PREFIX + keys.clientIp, max: maxFailuresPerAccount * CLIENT_FAILURES_PER_ACCOUNT_FAILURE }] : []),
  ];

  return {
    async reserveAttempt(keys) {
      const waits = await Promise.all(
        limits(keys).map(async ({ key, max }) => {
          await countFailure(db, key, windowMs);
          const row = await db.rateLimit.findUnique({ where: { key } });
          // This attempt is within the limit when no more than `max` were counted up to it.
          if (!row || row.count <= max) return 0;
          const windowEnd = Number(row.lastRequest) + windowMs;
          return Math.max(1, Math.ceil((windowEnd - Date.now()) / 1000));
        }),
      );
      return Math.max(0, ...waits);
    },
    async releaseAttempt(keys, { clearAccount }) {
      for (const { key } of limits(keys)) {
        // A correct password clears the account's count (not the client's: it may be guessing others).
        if (clearAccount && key.startsWith(ACCOUNT_PREFIX)) await db.rateLimit.deleteMany({ where: { key } });
        else await db.rateLimit.updateMany({ where: { key, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
      }
    },
  };
}

// `lastRequest` holds the time the window opened (the first failure of the run); the window is
// fixed from there so a steady trickle of guesses cannot keep an account locked forever.
async function countFailure(db: Db, key: string, windowMs: number): Promise<void> {
  const now = Date.now();
  const inWindow = await db.rateLimit.updateMany({
    where: { key, lastRequest: { gt: BigInt(now - windowMs) } },
    data: { count: { increment: 1 } },
  });
  if (inWindow.count > 0) return;
  await db.rateLimit.upsert({
    where: { key },
    create: { id: randomUUID(), key, count: 1, lastRequest: BigInt(now) },
    update: { count: 1, lastRequest: BigInt(now) },
  });
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
