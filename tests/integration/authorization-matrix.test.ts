import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiRoutes } from "../helpers/api-routes";
import { TranscriptBuilder } from "../helpers/transcript-lines";

/**
 * Every API route × every kind of caller → the expected status. The route list is read from
 * app/api, so a new route (or method) without an access rule, or without a row below, fails.
 */
type Identity = "none" | "malformedToken" | "revokedToken" | "viewer" | "member" | "leadOfOther" | "lead" | "admin";
const IDENTITIES: Identity[] = ["none", "malformedToken", "revokedToken", "viewer", "member", "leadOfOther", "lead", "admin"];
const PASSWORD = "matrix-password-123";
const BASE = "http://127.0.0.1:3000";

type Call = { path: string; params?: Record<string, string>; body?: unknown };
type Row = { success: number; prepare: (identity: Identity) => Promise<Call> };

let worldDir = "";
let world: Awaited<ReturnType<typeof buildWorld>>;

async function buildWorld() {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-matrix-"));
  const dataDir = path.join(worldDir, "data");
  process.env.TEAMMEM_DATA_DIR = dataDir;
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const { createAccount, setProjectRole } = await import("@/lib/auth/manage-users");
  const { createApiToken, revokeApiToken } = await import("@/lib/auth/manage-api-tokens");
  const auth = await getAuth();
  const db = getDatabase();

  await db.project.create({ data: { id: "other-project", name: "Other" } });
  await createAccount(auth, db, { email: "vera@acme.example", name: "Vera Viewer", password: PASSWORD });
  await setProjectRole(db, { projectId: "acme-checkout", email: "vera@acme.example", role: "viewer" });
  await createAccount(auth, db, { email: "olga@other.example", name: "Olga Other", password: PASSWORD });
  await setProjectRole(db, { projectId: "other-project", email: "olga@other.example", role: "lead" });

  const emails: Partial<Record<Identity, string>> = {
    viewer: "vera@acme.example", member: "omar@acme.example", leadOfOther: "olga@other.example", lead: "lena@acme.example", admin: "admin@teammem.local",
  };
  const sessions: Partial<Record<Identity, string>> = {};
  const userIds: Partial<Record<Identity, string>> = {};
  for (const [identity, email] of Object.entries(emails) as [Identity, string][]) {
    const response = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
    sessions[identity] = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
    userIds[identity] = (await db.user.findUniqueOrThrow({ where: { email } })).id;
  }
  const lena = { userId: userIds.lead!, email: emails.lead!, name: "Lena", isAdmin: false, via: "session" as const, tokenProjectIds: null };
  const revoked = await createApiToken(db, lena, { name: "old", projectIds: ["acme-checkout"] });
  await revokeApiToken(db, lena, revoked.summary.id);
  const { submitProposal } = await import("@/lib/review/submit-proposal");
  const { rejectProposal } = await import("@/lib/review/reject-proposal");
  const submitAs = async (identity: Identity, content: string = cleanMemory()) => {
    const proposerId = userIds[identity] ?? userIds.member!;
    return submitProposal(loadConfig(), db, { projectId: "acme-checkout", path: `project_matrix_${++unique}.md`, content, source: "member", proposerId });
  };
  const callerFor = (identity: Identity) => ({ userId: userIds[identity]!, email: emails[identity]!, name: identity, isAdmin: identity === "admin", via: "session" as const, tokenProjectIds: null });
  return { db, sessions, userIds, revokedToken: revoked.token, callerFor, submitAs, reject: (proposalId: string) => rejectProposal(loadConfig(), db, { proposalId, actorId: userIds.lead!, reason: "matrix" }), createApiToken, createAccount: (email: string) => createAccount(auth, db, { email, name: "Throwaway", password: PASSWORD }), setProjectRole };
}

let unique = 0;
function cleanMemory(): string {
  return `---\nname: Matrix memory ${unique}\ndescription: Checkout matrix decision number ${unique} about retry budgets\ntype: project\n---\nRetry budget is ${unique} per minute since 2026-11-01.\n**Why:** the vendor throttles.\n**How to apply:** all PayFlow calls.\n`;
}
function secretMemory(): string {
  return cleanMemory().replace("**Why:**", `Connect with postgres://app:${["Zq8", "vR2pL7xW", String(unique)].join("-")}@db.internal:5432/app\n**Why:**`);
}
const proposalCall = async (identity: Identity, action: string, body: unknown, content?: string) => {
  const proposal = await world.submitAs(identity, content);
  return { path: `/api/projects/acme-checkout/proposals/${proposal.id}/${action}`, params: { id: "acme-checkout", proposalId: proposal.id }, body };
};
const ROWS: Record<string, Row> = {
  "GET /api/health": { success: 200, prepare: async () => ({ path: "/api/health" }) },
  "GET /api/auth/[...all]": { success: 200, prepare: async () => ({ path: "/api/auth/ok", params: { all: "ok" } }) },
  "POST /api/auth/[...all]": { success: 400, prepare: async () => ({ path: "/api/auth/sign-in/email", params: { all: "sign-in" }, body: { email: "not-an-email" } }) },
  "GET /api/me": { success: 200, prepare: async () => ({ path: "/api/me" }) },
  "GET /api/projects": { success: 200, prepare: async () => ({ path: "/api/projects" }) },
  "POST /api/projects": { success: 201, prepare: async () => ({ path: "/api/projects", body: { id: `matrix-project-${++unique}`, name: "Matrix project" } }) },
  "GET /api/projects/[id]": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout", params: { id: "acme-checkout" } }) },
  "PATCH /api/projects/[id]": {
    success: 200,
    prepare: async () => ({ path: "/api/projects/acme-checkout", params: { id: "acme-checkout" }, body: { allowSelfApproval: false } }),
  },
  "GET /api/projects/[id]/members": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/members", params: { id: "acme-checkout" } }) },
  "POST /api/projects/[id]/members": {
    success: 200,
    prepare: async () => ({ path: "/api/projects/acme-checkout/members", params: { id: "acme-checkout" }, body: { email: "priya@acme.example", role: "member" } }),
  },
  "DELETE /api/projects/[id]/members/[userId]": {
    success: 204,
    prepare: async () => {
      const email = `gone-${++unique}@acme.example`;
      const { userId } = await world.createAccount(email);
      await world.setProjectRole(world.db, { projectId: "acme-checkout", email, role: "member" });
      return { path: `/api/projects/acme-checkout/members/${userId}`, params: { id: "acme-checkout", userId } };
    },
  },
  "POST /api/projects/[id]/recall": {
    success: 200,
    prepare: async () => ({ path: "/api/projects/acme-checkout/recall", params: { id: "acme-checkout" }, body: { query: "how do we test payments against PayFlow" } }),
  },
  "GET /api/projects/[id]/recall-events": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/recall-events", params: { id: "acme-checkout" } }) },
  "GET /api/projects/[id]/sync": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/sync", params: { id: "acme-checkout" } }) },
  "POST /api/projects/[id]/sync/proposals": {
    success: 201,
    prepare: async () => ({
      path: "/api/projects/acme-checkout/sync/proposals",
      params: { id: "acme-checkout" },
      body: { path: `project_sync_${++unique}.md`, content: cleanMemory(), baseBlob: null, idempotencyKey: `matrix-key-${unique}-0123456789`, provenance: { checkout: "/work/checkout", baseCommit: null, clientVersion: "matrix" } },
    }),
  },
  "POST /api/projects/[id]/sync/proposals/cancel": {
    success: 200,
    prepare: async () => ({ path: "/api/projects/acme-checkout/sync/proposals/cancel", params: { id: "acme-checkout" }, body: { idempotencyKey: `matrix-cancel-${++unique}-0123456789` } }),
  },
  "GET /api/projects/[id]/sync/members": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/sync/members", params: { id: "acme-checkout" } }) },
  "POST /api/projects/[id]/extractions": {
    success: 201,
    prepare: async () => {
      const session = new TranscriptBuilder();
      session.user(`From now on, run the matrix checks before every release ${++unique}.`);
      return { path: "/api/projects/acme-checkout/extractions", params: { id: "acme-checkout" }, body: { transcript: session.text(), shareExcerpt: true } };
    },
  },
  "GET /api/projects/[id]/proposals": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/proposals", params: { id: "acme-checkout" } }) },
  "POST /api/projects/[id]/proposals": {
    success: 201,
    prepare: async () => ({ path: "/api/projects/acme-checkout/proposals", params: { id: "acme-checkout" }, body: { path: `project_api_${++unique}.md`, content: cleanMemory() } }),
  },
  "GET /api/projects/[id]/proposals/[proposalId]": {
    success: 200,
    prepare: async (identity) => {
      const proposal = await world.submitAs(identity);
      return { path: `/api/projects/acme-checkout/proposals/${proposal.id}`, params: { id: "acme-checkout", proposalId: proposal.id } };
    },
  },
  // Four eyes: a member proposes what the caller approves (self-approval is tested in review-rules).
  "POST /api/projects/[id]/proposals/[proposalId]/approve": { success: 200, prepare: () => proposalCall("member", "approve", { revision: 1 }) },
  "POST /api/projects/[id]/proposals/[proposalId]/reject": { success: 200, prepare: (identity) => proposalCall(identity, "reject", { reason: "not a team fact" }) },
  "POST /api/projects/[id]/proposals/[proposalId]/revise": { success: 200, prepare: (identity) => proposalCall(identity, "revise", { content: cleanMemory(), note: "tightened" }) },
  "POST /api/projects/[id]/proposals/[proposalId]/redact": { success: 200, prepare: (identity) => proposalCall(identity, "redact", undefined, secretMemory()) },
  "POST /api/projects/[id]/proposals/[proposalId]/withdraw": { success: 200, prepare: (identity) => proposalCall(identity, "withdraw", undefined) },
  "POST /api/projects/[id]/proposals/[proposalId]/reopen": {
    success: 200,
    prepare: async (identity) => {
      const call = await proposalCall(identity, "reopen", undefined);
      await world.reject(call.params.proposalId);
      return call;
    },
  },
  "POST /api/projects/[id]/proposals/[proposalId]/supersede": {
    success: 200,
    prepare: (identity) =>
      proposalCall(identity, "supersede", { targetPath: "reference_grafana_payflow.md" }, cleanMemory().replace(/name: Matrix memory \d+/, 'name: Grafana "Payments / PayFlow Vendor Health" dashboard')),
  },
  "GET /api/projects/[id]/freshness": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/freshness", params: { id: "acme-checkout" } }) },
  "POST /api/projects/[id]/freshness": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/freshness", params: { id: "acme-checkout" } }) },
  "POST /api/projects/[id]/still-true": { success: 200, prepare: async () => ({ path: "/api/projects/acme-checkout/still-true", params: { id: "acme-checkout" }, body: { path: "reference_grafana_payflow.md" } }) },
  "POST /api/projects/[id]/proposals/bulk-approve": {
    success: 200,
    prepare: async () => {
      const proposal = await world.submitAs("member");
      return { path: "/api/projects/acme-checkout/proposals/bulk-approve", params: { id: "acme-checkout" }, body: { items: [{ proposalId: proposal.id, revision: 1 }] } };
    },
  },
  "GET /api/tokens": { success: 200, prepare: async () => ({ path: "/api/tokens" }) },
  "POST /api/tokens": {
    success: 201,
    prepare: async (identity) => ({ path: "/api/tokens", body: { name: "matrix", projectIds: [identity === "leadOfOther" ? "other-project" : "acme-checkout"] } }),
  },
  "DELETE /api/tokens/[tokenId]": {
    success: 200,
    prepare: async (identity) => {
      const hasUser = world.userIds[identity] !== undefined;
      const projectIds = [identity === "leadOfOther" ? "other-project" : "acme-checkout"];
      const tokenId = hasUser ? (await world.createApiToken(world.db, world.callerFor(identity), { name: "to-revoke", projectIds })).summary.id : "none";
      return { path: `/api/tokens/${tokenId}`, params: { tokenId } };
    },
  },
  // Only the Claude home's owner may repair, and for a folder that is not there everyone gets the
  // same 404 (owner included), which keeps this row uniform; the owner's repair and everyone
  // else's NOT_FOUND are proven in tests/integration/memories.test.ts.
  "POST /api/memory-index/repair": {
    success: 404,
    prepare: async () => ({ path: "/api/memory-index/repair", body: { folder: "no-such-folder", expectedHash: "0".repeat(64) } }),
  },
  "GET /api/admin/users": { success: 200, prepare: async () => ({ path: "/api/admin/users" }) },
  "POST /api/admin/users": { success: 201, prepare: async () => ({ path: "/api/admin/users", body: { email: `new-${++unique}@acme.example`, name: "New Person" } }) },
  // A path no route claims: the same JSON 404 for everyone, whatever the method.
  ...Object.fromEntries(["GET", "POST", "PUT", "PATCH", "DELETE"].map((method) => [`${method} /api/[...unknown]`, { success: 404, prepare: async () => ({ path: "/api/nope" }) }])),
};

function expectedStatus(rule: { kind: string; permission?: string }, identity: Identity, success: number): number {
  if (rule.kind === "public") return success;
  if (identity === "none" || identity === "malformedToken" || identity === "revokedToken") return 401;
  if (rule.kind === "signedIn") return success;
  if (rule.kind === "admin") return identity === "admin" ? success : 403;
  // Project acme-checkout: no role → 404 (existence is not revealed), too low a role → 403.
  if (identity === "leadOfOther") return 404;
  const rank = { viewer: 0, member: 1, lead: 2 } as const;
  const needed = { read: 0, propose: 1, review: 2, manage: 2, oversee: 2 }[rule.permission as "read"]!;
  // An admin with no role reads, oversees and manages every project; proposing (recall and sync
  // included: they act as a member) and review need a role (README's role table).
  if (identity === "admin") return rule.permission === "review" || rule.permission === "propose" ? 403 : success;
  return rank[identity as keyof typeof rank] >= needed ? success : 403;
}

function headersFor(identity: Identity, method: string): Headers {
  const headers = new Headers();
  if (identity === "malformedToken") headers.set("authorization", "Bearer not-a-token");
  if (identity === "revokedToken") headers.set("authorization", `Bearer ${world.revokedToken}`);
  const cookie = world.sessions[identity];
  if (cookie) headers.set("cookie", cookie);
  if (method !== "GET") headers.set("origin", BASE);
  // Each caller is its own client: better-auth's sign-in rate limit counts per address.
  headers.set("x-forwarded-for", `192.0.2.${IDENTITIES.indexOf(identity) + 1}`);
  return headers;
}

describe("authorization matrix", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    await rm(worldDir, { recursive: true, force: true });
  });

  it("every route handler declares an access rule and has a row in this matrix", async () => {
    const routes = await loadApiRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(ROWS).length);
    for (const route of routes) {
      expect(route.rule, `${route.key} is not declared through route(access…, handler)`).toBeDefined();
      expect(ROWS[route.key], `${route.key} has no row in the authorization matrix`).toBeDefined();
    }
  });

  it("answers every route × caller with the expected status", async () => {
    const failures: string[] = [];
    for (const route of await loadApiRoutes()) {
      const row = ROWS[route.key]!;
      for (const identity of IDENTITIES) {
        const call = await row.prepare(identity);
        const method = route.key.split(" ")[0]!;
        const headers = headersFor(identity, method);
        if (call.body !== undefined) headers.set("content-type", "application/json");
        const request = new Request(BASE + call.path, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
        const response = await route.handler(request, { params: Promise.resolve(call.params ?? {}) });
        const expected = expectedStatus(route.rule!, identity, row.success);
        if (response.status !== expected) failures.push(`${route.key} as ${identity}: ${response.status}, expected ${expected}`);
        if (response.status >= 400 && response.headers.get("content-type")?.includes("json")) {
          const text = await response.text();
          expect(text, "errors never carry a stack").not.toMatch(/\bat .*\.(ts|js):\d+/);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("refuses a cookie-authenticated write from another site, and bad bodies with a one-line reason", async () => {
    const { POST } = await import("@/app/api/tokens/route");
    const send = (headers: Record<string, string>, body: string) =>
      POST(new Request(`${BASE}/api/tokens`, { method: "POST", headers: { cookie: world.sessions.lead!, ...headers }, body }), { params: Promise.resolve({}) });
    const valid = JSON.stringify({ name: "x", projectIds: ["acme-checkout"] });

    const crossSite = await send({ origin: "https://evil.example", "content-type": "application/json" }, valid);
    expect(crossSite.status).toBe(403);
    expect((await send({ origin: BASE, "content-type": "text/plain" }, valid)).status).toBe(415);
    expect((await send({ origin: BASE, "content-type": "application/json" }, "{not json")).status).toBe(400);
    const oversized = await send({ origin: BASE, "content-type": "application/json" }, JSON.stringify({ name: "x".repeat(300_000), projectIds: ["acme-checkout"] }));
    expect(oversized.status).toBe(413);
    const wrongField = await send({ origin: BASE, "content-type": "application/json" }, JSON.stringify({ name: "x", projectIds: "acme-checkout" }));
    expect(wrongField.status).toBe(400);
    expect(((await wrongField.json()) as { error: { message: string } }).error.message).toMatch(/^projectIds:/);
  });

  it("a forged or expired session cookie is simply not signed in (401, one line, no stack)", async () => {
    const { GET } = await import("@/app/api/me/route");
    const call = (cookie: string) => GET(new Request(`${BASE}/api/me`, { headers: { cookie } }), { params: Promise.resolve({}) });
    const forged = await call("teammem.session_token=forged.c2lnbmF0dXJl");
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(/^Sign in/);

    const session = await world.db.session.findFirstOrThrow({ where: { userId: world.userIds.viewer } });
    await world.db.session.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(world.sessions.viewer!)).status).toBe(401);
  });

  it("slows down brute force: the sixth failed sign-in within a minute is refused with 429", async () => {
    const { POST } = await import("@/app/api/auth/[...all]/route");
    const attempt = () =>
      POST(
        new Request(`${BASE}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": "198.51.100.7" },
          body: JSON.stringify({ email: "lena@acme.example", password: "wrong-password-guess" }),
        }),
        { params: Promise.resolve({ all: "sign-in" }) },
      );
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 5).every((status) => status === 401)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it("a token acts only inside its project scope and stops working once revoked", async () => {
    const { GET } = await import("@/app/api/projects/[id]/route");
    const created = await world.createApiToken(world.db, world.callerFor("lead"), { name: "scoped", projectIds: ["acme-checkout"] });
    const call = (id: string) => GET(new Request(`${BASE}/api/projects/${id}`, { headers: { authorization: `Bearer ${created.token}` } }), { params: Promise.resolve({ id }) });
    expect((await call("acme-checkout")).status).toBe(200);
    expect((await call("other-project")).status).toBe(404);
    const stored = await world.db.apiToken.findUniqueOrThrow({ where: { id: created.summary.id } });
    expect(stored.hash).not.toContain(created.token);
    expect(stored.lastUsedAt).not.toBeNull();
  });

  it("a memory page offers 'Still true' to exactly the callers the API lets press it: leads of the project", async () => {
    const { hasProjectPermission } = await import("@/lib/auth/permissions");
    const { POST } = await import("@/app/api/projects/[id]/still-true/route");
    const identities = ["viewer", "member", "leadOfOther", "admin", "lead"] as const;
    const offered: Record<string, boolean> = {};
    const allowed: Record<string, boolean> = {};
    for (const identity of identities) {
      offered[identity] = await hasProjectPermission(world.db, world.callerFor(identity), "acme-checkout", "review");
      const request = new Request(`${BASE}/api/projects/acme-checkout/still-true`, { method: "POST", headers: { cookie: world.sessions[identity]!, origin: BASE, "content-type": "application/json" }, body: JSON.stringify({ path: "reference_grafana_payflow.md" }) });
      allowed[identity] = (await POST(request, { params: Promise.resolve({ id: "acme-checkout" }) })).status === 200;
    }
    expect(offered).toEqual({ viewer: false, member: false, leadOfOther: false, admin: false, lead: true });
    expect(offered).toEqual(allowed);
  });

  it("an admin with no role in a project reads both lead-only views, and is told why proposing, recall and sync are refused", async () => {
    const get = async (file: string) => {
      const { GET } = (await import(`@/app/api/projects/[id]/${file}/route`)) as { GET: (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> };
      return GET(new Request(`${BASE}/api/projects/acme-checkout/${file}`, { headers: headersFor("admin", "GET") }), { params: Promise.resolve({ id: "acme-checkout" }) });
    };
    expect((await get("recall-events")).status).toBe(200);
    expect((await get("sync/members")).status).toBe(200);
    const sync = await get("sync");
    expect(sync.status).toBe(403);
    expect(((await sync.json()) as { error: { message: string } }).error.message).toMatch(/^Admins propose, recall and sync only in projects where they are a member/);
    const admin = await world.db.user.findUniqueOrThrow({ where: { email: "admin@teammem.local" } });
    expect(await world.db.memberSync.count({ where: { userId: admin.id } })).toBe(0);
  });

  it("a memory page offers 'Propose a change' to exactly the callers the API lets propose: a viewer, and an admin with no role, read only", async () => {
    const { hasProjectPermission } = await import("@/lib/auth/permissions");
    const { POST } = await import("@/app/api/projects/[id]/proposals/route");
    const identities = ["viewer", "member", "leadOfOther", "admin", "lead"] as const;
    const offered: Record<string, boolean> = {};
    const allowed: Record<string, boolean> = {};
    for (const identity of identities) {
      offered[identity] = await hasProjectPermission(world.db, world.callerFor(identity), "acme-checkout", "propose");
      const body = JSON.stringify({ path: `project_offer_${++unique}.md`, content: cleanMemory() });
      const request = new Request(`${BASE}/api/projects/acme-checkout/proposals`, { method: "POST", headers: { cookie: world.sessions[identity]!, origin: BASE, "content-type": "application/json" }, body });
      allowed[identity] = (await POST(request, { params: Promise.resolve({ id: "acme-checkout" }) })).status === 201;
    }
    expect(offered).toEqual({ viewer: false, member: true, leadOfOther: false, admin: false, lead: true });
    expect(offered).toEqual(allowed);
  });
});
