import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The sign-in limit counts failures only: per account (email) and per client (IP), in the
 * database. Requests go through the real route handler, as the sign-in form's do.
 */
const PASSWORD = "limit-password-1234";
const BASE = "http://127.0.0.1:3000";
const LIMIT = 5; // TEAMMEM_SIGN_IN_LIMIT's default

let worldDir = "";
let db: Awaited<ReturnType<typeof buildWorld>>["db"];
let nextClient = 0;

async function buildWorld() {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-sign-in-limit-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  delete process.env.TEAMMEM_SIGN_IN_LIMIT;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getDatabase } = await import("@/app/_server/context");
  return { db: getDatabase() };
}

/** A fresh client address per test, so tests do not share the per-client count. */
function newClient(): string {
  return `198.51.100.${++nextClient}`;
}

async function signIn(email: string, password: string, clientIp: string, extra: Record<string, unknown> = {}): Promise<Response> {
  const { POST } = await import("@/app/api/auth/[...all]/route");
  return POST(
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": clientIp },
      body: JSON.stringify({ email, password, ...extra }),
    }),
    { params: Promise.resolve({ all: "sign-in" }) },
  );
}

describe("sign-in limit", () => {
  beforeAll(async () => {
    ({ db } = await buildWorld());
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    await rm(worldDir, { recursive: true, force: true });
  });

  it("does not count successful sign-ins: the eleventh in a row still succeeds", async () => {
    const client = newClient();
    const accounts = ["lena@acme.example", "omar@acme.example", "admin@teammem.local"];
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await signIn(accounts[attempt % accounts.length]!, PASSWORD, client)).status);
    expect(statuses).toEqual(Array(11).fill(200));
  });

  it("locks one account after LIMIT failures, even with the right password, and says when to retry; other accounts from the same client still sign in", async () => {
    const client = newClient();
    const failures: number[] = [];
    for (let attempt = 0; attempt < LIMIT; attempt++) failures.push((await signIn("omar@acme.example", "wrong-password-guess", client)).status);
    expect(failures).toEqual(Array(LIMIT).fill(401));

    const locked = await signIn("omar@acme.example", PASSWORD, client);
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await locked.json()) as { error: { code: string; message: string } }).error).toEqual({ code: "RATE_LIMITED", message: expect.stringMatching(/try again in \d+ seconds/i) });
    // The account, not the address: another client cannot sign in as omar either.
    expect((await signIn("omar@acme.example", PASSWORD, newClient())).status).toBe(429);

    expect((await signIn("lena@acme.example", PASSWORD, client)).status).toBe(200);

    // Once the window has passed (moved back in the shared table), the right password works.
    await db.rateLimit.updateMany({ where: { key: { contains: "omar@acme.example" } }, data: { lastRequest: BigInt(Date.now() - 61_000) } });
    expect((await signIn("omar@acme.example", PASSWORD, client)).status).toBe(200);
  });

  it("holds the account's limit for guesses sent at the same instant: at most LIMIT reach the password check", async () => {
    const statuses = await Promise.all(Array.from({ length: 12 }, () => signIn("priya@acme.example", "wrong-password-guess", newClient()).then((response) => response.status)));
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(12 - LIMIT);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    await db.rateLimit.deleteMany({ where: { key: { contains: "priya@acme.example" } } });
    expect((await signIn("priya@acme.example", PASSWORD, newClient())).status).toBe(200);
  });

  it("does not count a body sign-in refuses (a field it does not take) as a failure, nor answer it with the password's verdict", async () => {
    const client = newClient();
    const refused: number[] = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++) refused.push((await signIn("priya@acme.example", "wrong-password-guess", client, { rememberMe2: true })).status);
    expect(refused).toEqual(Array(LIMIT + 1).fill(400));
    expect(await db.rateLimit.count({ where: { key: { contains: "priya@acme.example" } } })).toBe(0);
    expect((await signIn("priya@acme.example", PASSWORD, client)).status).toBe(200);
  });

  it("limits a client that fails across many accounts, without locking those accounts elsewhere", async () => {
    const client = newClient();
    const clientLimit = LIMIT * 4;
    for (let attempt = 0; attempt < clientLimit; attempt++) {
      // One failure each for many (unknown) accounts: no single account reaches its limit.
      expect((await signIn(`guess-${attempt}@acme.example`, "wrong-password-guess", client)).status).toBe(401);
    }
    const refused = await signIn("lena@acme.example", PASSWORD, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signIn("lena@acme.example", PASSWORD, newClient())).status).toBe(200);
  });
});
