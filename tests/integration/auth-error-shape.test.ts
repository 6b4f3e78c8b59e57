import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * README "API": every route answers errors as `{"error": {"code", "message"}}`, /api/auth
 * (better-auth) included: a client reading `error.code` must find it there too. What the
 * dashboard does there (sign in, read the session, change the password, sign out) still works.
 * Requests go through the real route handler.
 */
const PASSWORD = "auth-shape-password-1";
const BASE = "http://127.0.0.1:3000";
type Answer = { status: number; body: unknown; headers: Headers };

let worldDir = "";
let db: Awaited<ReturnType<typeof import("@/app/_server/context").getDatabase>>;
let nextClient = 0;

async function auth(endpoint: string, init: { method?: string; body?: string; origin?: string; cookie?: string; contentType?: string } = {}): Promise<Answer> {
  const route = await import("@/app/api/auth/[...all]/route");
  const method = init.method ?? "POST";
  const headers = new Headers({ "x-forwarded-for": `203.0.113.${++nextClient}` });
  if (method !== "GET") headers.set("content-type", init.contentType ?? "application/json");
  if (init.origin !== "") headers.set("origin", init.origin ?? BASE);
  if (init.cookie) headers.set("cookie", init.cookie);
  const handler = method === "GET" ? route.GET : route.POST;
  const response = await handler(new Request(`${BASE}/api/auth${endpoint}`, { method, headers, body: init.body }), { params: Promise.resolve({ all: endpoint.slice(1).split("/") }) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, headers: response.headers };
}

const shaped = (code: string, message: string | RegExp = /\S/) => ({ error: { code, message: typeof message === "string" ? message : expect.stringMatching(message) } });

describe("/api/auth answers errors in teammem's shape", () => {
  beforeAll(async () => {
    worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-auth-shape-"));
    process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
    process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
    const { loadConfig } = await import("@/lib/config");
    const { runSetup } = await import("@/lib/setup/run-setup");
    await runSetup(loadConfig());
    db = (await import("@/app/_server/context")).getDatabase();
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    await rm(worldDir, { recursive: true, force: true });
  });

  it("a sign-in body that is not JSON, or is empty, is a 400 INVALID_INPUT saying so", async () => {
    for (const body of ['{"email":"lena@acme.example"', "", "not json"]) {
      const answer = await auth("/sign-in/email", { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toEqual(shaped("INVALID_INPUT", "The request body is not valid JSON."));
    }
  });

  it("better-auth's own refusals come back as {error: {code, message}} with teammem's codes", async () => {
    // (better-auth skips its origin check under NODE_ENV=test: INVALID_ORIGIN's wording is in tests/unit/http/auth-error.test.ts.)
    const wrong = await auth("/sign-in/email", { body: JSON.stringify({ email: "lena@acme.example", password: "wrong-password-guess" }) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(shaped("UNAUTHORIZED", "Wrong email or password."));

    const notEmail = await auth("/sign-in/email", { body: JSON.stringify({ email: "not-an-email", password: PASSWORD }) });
    expect(notEmail.status).toBe(400);
    expect(notEmail.body).toEqual(shaped("INVALID_INPUT"));

    const signedOut = await auth("/change-password", { body: JSON.stringify({ currentPassword: PASSWORD, newPassword: "another-password-12" }) });
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toEqual(shaped("UNAUTHORIZED"));
  });

  it("sign-in, session, password change and sign-out still work, and their refusals are shaped too", async () => {
    const signedIn = await auth("/sign-in/email", { body: JSON.stringify({ email: "priya@acme.example", password: PASSWORD }) });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    expect(cookie).toContain("teammem.session_token=");
    expect((await auth("/get-session", { method: "GET", cookie })).body).toMatchObject({ user: { email: "priya@acme.example" } });

    const wrongCurrent = await auth("/change-password", { cookie, body: JSON.stringify({ currentPassword: "not-the-password-1", newPassword: "priya-new-password-1" }) });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body).toEqual(shaped("INVALID_INPUT", "The current password is wrong."));
    const tooShort = await auth("/change-password", { cookie, body: JSON.stringify({ currentPassword: PASSWORD, newPassword: "short" }) });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body).toEqual(shaped("INVALID_INPUT", "The new password is too short: 12 characters at least."));
    const changed = await auth("/change-password", { cookie, body: JSON.stringify({ currentPassword: PASSWORD, newPassword: "priya-new-password-1", revokeOtherSessions: true }) });
    expect(changed.status).toBe(200);
    const newCookie = changed.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") || cookie;

    expect((await auth("/sign-out", { cookie: newCookie, body: "{}" })).status).toBe(200);
    expect((await auth("/get-session", { method: "GET", cookie: newCookie })).body).toBeNull();
  });

  // update-user let a member put a credential in the account name every member of their projects
  // is shown; the dashboard uses none of these.
  it("the better-auth endpoints the dashboard does not use answer 404 to a signed-in member, and the account name stays", async () => {
    const signedIn = await auth("/sign-in/email", { body: JSON.stringify({ email: "omar@acme.example", password: PASSWORD }) });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}x9Y8z7`;
    for (const [endpoint, body] of [
      ["/update-user", { name: `Omar ${token}` }],
      ["/change-email", { newEmail: "omar@evil.example" }],
      ["/delete-user", { password: PASSWORD }],
      ["/sign-up/email", { email: "new@acme.example", password: PASSWORD, name: "New" }],
      ["/revoke-sessions", {}],
    ] as const) {
      const answer = await auth(endpoint, { cookie, body: JSON.stringify(body) });
      expect(answer.status, endpoint).toBe(404);
      expect(answer.body, endpoint).toEqual(shaped("NOT_FOUND"));
    }
    expect((await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } })).name).not.toContain("ghp_");
  });
});
