import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * README "Projects": every change to a project is an audit event. Adding a member, changing a
 * role and removing a member are changes too: who gave or took whose role must be on record (a
 * lead demoting the other lead included). Requests go through the real route handlers.
 */
const PASSWORD = "member-audit-password-1";
const BASE = "http://127.0.0.1:3000";
const PROJECT = "acme-checkout";
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-member-audit-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const { createAccount, setProjectRole } = await import("@/lib/auth/manage-users");
  const { createApiToken } = await import("@/lib/auth/manage-api-tokens");
  const auth = await getAuth();
  const db = getDatabase();
  await createAccount(auth, db, { email: "vic@acme.example", name: "Vic", password: PASSWORD });
  await createAccount(auth, db, { email: "leo@acme.example", name: "Leo", password: PASSWORD });
  await setProjectRole(db, { projectId: PROJECT, email: "leo@acme.example", role: "lead" });
  const lena = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
  const token = (await createApiToken(db, { userId: lena.id, email: lena.email, name: lena.name, isAdmin: false, via: "session", tokenProjectIds: null }, { name: "audit", projectIds: [PROJECT] })).token;
  return { db, lena, token };
}

async function send(file: string, method: string, params: Record<string, string>, body?: unknown): Promise<Response> {
  const handler = ((await import(`@/app/api/projects/[id]/${file}/route`)) as Record<string, Handler>)[method]!;
  const headers = new Headers({ authorization: `Bearer ${world.token}` });
  if (body !== undefined) headers.set("content-type", "application/json");
  const urlPath = file.replace("[userId]", params.userId ?? "");
  return handler(new Request(`${BASE}/api/projects/${PROJECT}/${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), { params: Promise.resolve({ id: PROJECT, ...params }) });
}

const memberEvents = async () =>
  (await world.db.auditEvent.findMany({ where: { projectId: PROJECT, action: { startsWith: "project.member_" } }, orderBy: { at: "asc" } })).map((event) => ({
    actor: event.actor,
    action: event.action,
    detail: JSON.parse(event.detail) as Record<string, unknown>,
  }));

describe("member changes are audit events", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    await rm(root, { recursive: true, force: true });
  });

  it("adding, changing a role, removing, and demoting another lead each write who did what to whom", async () => {
    const vic = await world.db.user.findUniqueOrThrow({ where: { email: "vic@acme.example" } });
    const leo = await world.db.user.findUniqueOrThrow({ where: { email: "leo@acme.example" } });
    expect((await send("members", "POST", {}, { email: "vic@acme.example", role: "viewer" })).status).toBe(200);
    expect((await send("members", "POST", {}, { email: "vic@acme.example", role: "member" })).status).toBe(200);
    // The same role again changes nothing, and records nothing.
    expect((await send("members", "POST", {}, { email: "vic@acme.example", role: "member" })).status).toBe(200);
    expect((await send("members/[userId]", "DELETE", { userId: vic.id })).status).toBe(204);
    expect((await send("members", "POST", {}, { email: "leo@acme.example", role: "viewer" })).status).toBe(200);

    const by = { actor: "lena@acme.example" };
    const actorId = world.lena.id;
    expect(await memberEvents()).toEqual([
      { ...by, action: "project.member_added", detail: { actorId, userId: vic.id, email: "vic@acme.example", role: "viewer" } },
      { ...by, action: "project.member_role_changed", detail: { actorId, userId: vic.id, email: "vic@acme.example", from: "viewer", to: "member" } },
      { ...by, action: "project.member_removed", detail: { actorId, userId: vic.id, email: "vic@acme.example", role: "member" } },
      { ...by, action: "project.member_role_changed", detail: { actorId, userId: leo.id, email: "leo@acme.example", from: "lead", to: "viewer" } },
    ]);
  });

  it("a refused change (the last lead, someone without a role) records nothing", async () => {
    const before = (await memberEvents()).length;
    expect((await send("members", "POST", {}, { email: "lena@acme.example", role: "member" })).status).toBe(409);
    expect((await send("members/[userId]", "DELETE", { userId: world.lena.id })).status).toBe(409);
    expect((await send("members/[userId]", "DELETE", { userId: "nobody" })).status).toBe(404);
    expect((await memberEvents()).length).toBe(before);
  });
});
