import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * better-auth serves many endpoints under /api/auth; the dashboard uses four. The others must stay
 * closed: update-user let a member put a credential in the account name every member of their
 * projects is shown. Requests go through the real route handler with a real session cookie.
 */
const PASSWORD = "closed-endpoints-password-1";
const BASE = "http://127.0.0.1:3000";
let worldDir = "";
let db: Awaited<ReturnType<typeof import("@/app/_server/context").getDatabase>>;

async function authCall(endpoint: string, body: unknown, cookie = ""): Promise<Response> {
  const { POST } = await import("@/app/api/auth/[...all]/route");
  return POST(
    new Request(`${BASE}/api/auth${endpoint}`, { method: "POST", headers: { "content-type": "application/json", origin: BASE, cookie }, body: JSON.stringify(body) }),
    { params: Promise.resolve({ all: endpoint.slice(1).split("/") }) },
  );
}

describe("better-auth endpoints the dashboard does not use", () => {
  beforeAll(async () => {
    worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-auth-closed-"));
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

  it("answer 404 to a signed-in member, and the account name stays as the admin set it", async () => {
    const signedIn = await authCall("/sign-in/email", { email: "priya@acme.example", password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}x9Y8z7`;
    for (const [endpoint, body] of [
      ["/update-user", { name: `Priya ${token}` }],
      ["/change-email", { newEmail: "priya@evil.example" }],
      ["/delete-user", { password: PASSWORD }],
      ["/sign-up/email", { email: "new@acme.example", password: PASSWORD, name: "New" }],
      ["/revoke-sessions", {}],
    ] as const) {
      const answer = await authCall(endpoint, body, cookie);
      expect(answer.status, endpoint).toBe(404);
      expect(await answer.json(), endpoint).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    const priya = await db.user.findUniqueOrThrow({ where: { email: "priya@acme.example" } });
    expect(priya.name).not.toContain("ghp_");
    // What the dashboard uses still answers: the session, and signing out.
    const { GET } = await import("@/app/api/auth/[...all]/route");
    const session = await GET(new Request(`${BASE}/api/auth/get-session`, { headers: { cookie } }), { params: Promise.resolve({ all: ["get-session"] }) });
    expect(await session.json()).toMatchObject({ user: { email: "priya@acme.example" } });
    expect((await authCall("/sign-out", {}, cookie)).status).toBe(200);
  });
});
