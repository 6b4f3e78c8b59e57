import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";

/**
 * Failed sign-ins per account (email) and per client (IP), counted in the database table
 * better-auth's own rate limiter uses, so every app instance shares one count. Successful
 * sign-ins never count: switching accounts a few times must not lock anyone out.
 */
export type SignInFailureLimit = {
  /** Seconds until a sign-in for these keys may be tried again; 0 when it may be tried now. */
  secondsUntilAllowed(keys: SignInKeys): Promise<number>;
  recordFailure(keys: SignInKeys): Promise<void>;
  /** A correct password clears the account's count (not the client's: it may be guessing others). */
  clearAccount(email: string): Promise<void>;
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
    async secondsUntilAllowed(keys) {
      const now = Date.now();
      const waits = await Promise.all(
        limits(keys).map(async ({ key, max }) => {
          const row = await db.rateLimit.findUnique({ where: { key } });
          if (!row || row.count < max) return 0;
          const windowEnd = Number(row.lastRequest) + windowMs;
          return windowEnd > now ? Math.ceil((windowEnd - now) / 1000) : 0;
        }),
      );
      return Math.max(0, ...waits);
    },
    async recordFailure(keys) {
      for (const { key } of limits(keys)) await countFailure(db, key, windowMs);
    },
    async clearAccount(email) {
      await db.rateLimit.deleteMany({ where: { key: ACCOUNT_PREFIX + normaliseEmail(email) } });
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
