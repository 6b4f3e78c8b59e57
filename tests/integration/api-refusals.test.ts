import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TranscriptBuilder } from "../helpers/transcript-lines";

/**
 * What the API refuses, as a client meets it: text that is not valid Unicode, bodies nested too
 * deep, paging parameters out of range, a credential in a value it would keep in clear, a field
 * sign-in does not take, paths that name no endpoint. Each is a JSON answer with a one-line
 * message naming what is wrong, never a 500 or an HTML page. Route handlers run over a real
 * store and SQLite file, with real sessions and tokens.
 */
const PASSWORD = "api-refusals-password";
const BASE = "http://127.0.0.1:3000";
const PROJECT = "acme-checkout";
type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Answer = { error?: { code: string; message: string } } & Record<string, unknown>;
type Credentials = { token?: string; cookie?: string };

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;
let unique = 0;

const memory = (extra = "") =>
  `---\nname: Refusals decision ${++unique}\ndescription: Checkout refusals decision ${unique} for the PayFlow rollout\ntype: project\n---\nThe retry budget is ${unique} per minute${extra}.\n**Why:** the vendor throttles.\n**How to apply:** PayFlow calls.\n`;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-refusals-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const { createApiToken } = await import("@/lib/auth/manage-api-tokens");
  const { submitProposal } = await import("@/lib/review/submit-proposal");
  const auth = await getAuth();
  const db = getDatabase();
  const adminSession = (await auth.api.signInEmail({ body: { email: "admin@teammem.local", password: PASSWORD }, asResponse: true })).headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
  const lena = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
  const lenaToken = (await createApiToken(db, { userId: lena.id, email: lena.email, name: lena.name, isAdmin: false, via: "session", tokenProjectIds: null }, { name: "refusals", projectIds: [PROJECT] })).token;
  const waitingProposal = async () => (await submitProposal(loadConfig(), db, { projectId: PROJECT, path: `project_refusals_${++unique}.md`, content: memory(), source: "member", proposerId: lena.id })).id;
  return { db, adminSession, lenaToken, waitingProposal };
}

const handlerOf = async (file: string, method = "POST") => ((await import(`@/app/api/${file}/route`)) as Record<string, Handler>)[method]!;

/** Calls a route handler; `body` is sent as JSON, or as it is when it is already text or bytes. */
async function call(handler: Handler, init: { path: string; params?: Record<string, string | string[]>; method?: string; body?: unknown } & Credentials): Promise<{ status: number; body: Answer; contentType: string }> {
  const headers = new Headers({ origin: BASE, "x-forwarded-for": "192.0.2.77" });
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const body = init.body === undefined ? undefined : typeof init.body === "string" ? init.body : init.body instanceof Uint8Array ? new Blob([Buffer.from(init.body)]) : JSON.stringify(init.body);
  const response = await handler(new Request(BASE + init.path, { method: init.method ?? "POST", headers, body }), { params: Promise.resolve(init.params ?? {}) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer, contentType: response.headers.get("content-type") ?? "" };
}

const asLena = () => ({ token: world.lenaToken });
const projectCall = async (file: string, body: unknown, proposalId?: string) =>
  call(await handlerOf(`projects/[id]/${file}`), {
    path: `/api/projects/${PROJECT}/${file.replace("[proposalId]", proposalId ?? "")}`,
    params: proposalId ? { id: PROJECT, proposalId } : { id: PROJECT },
    body,
    ...asLena(),
  });
const signIn = async (body: unknown) => call(await handlerOf("auth/[...all]"), { path: "/api/auth/sign-in/email", params: { all: ["sign-in", "email"] }, body });
const getPage = async (file: string, query: string) =>
  call(await handlerOf(file ? `projects/[id]/${file}` : "projects/[id]", "GET"), { path: `/api/projects/${PROJECT}${file ? `/${file}` : ""}?${query}`, params: { id: PROJECT }, method: "GET", ...asLena() });

describe("what the API refuses", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 180_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    await rm(root, { recursive: true, force: true });
  });

  it("a lone surrogate in any JSON string or key is a 400 naming the field, on every route that stores text, sign-in included", async () => {
    const LONE = /: (a key )?holds a lone surrogate \(U\+D[89A-F][0-9A-F]{2}\); send valid Unicode text\.$/;
    const syncBody = (provenance: Record<string, unknown>) => ({ path: `project_lone_${++unique}.md`, content: memory(), baseBlob: null, idempotencyKey: `lone-key-${unique}-0123456789`, provenance: { checkout: "/src/acme", baseCommit: null, clientVersion: "test", ...provenance } });
    const refusals = [
      { field: "content", answer: await projectCall("proposals", { path: `project_lone_${++unique}.md`, content: memory(" \ud800") }) },
      { field: "provenance", answer: await projectCall("proposals", { path: `project_lone_${++unique}.md`, content: memory(), provenance: { ["checkout\udc00"]: "/src" } }) },
      { field: "content", answer: await projectCall("proposals/[proposalId]/revise", { content: memory(" \udbff") }, await world.waitingProposal()) },
      { field: "note", answer: await projectCall("proposals/[proposalId]/revise", { content: memory(), note: "tightened \ud800" }, await world.waitingProposal()) },
      { field: "reason", answer: await projectCall("proposals/[proposalId]/reject", { reason: "not a team fact \ud800" }, await world.waitingProposal()) },
      { field: "provenance.checkout", answer: await projectCall("sync/proposals", syncBody({ checkout: "/src/\ud800" })) },
      { field: "name", answer: await call(await handlerOf("projects"), { path: "/api/projects", body: { name: "s\ud800" }, cookie: world.adminSession }) },
      { field: "name", answer: await call(await handlerOf("admin/users"), { path: "/api/admin/users", body: { email: `lone-${++unique}@acme.example`, name: "s\ud800" }, cookie: world.adminSession }) },
      { field: "password", answer: await signIn({ email: "lena@acme.example", password: "s\ud800" }) },
    ];
    for (const { field, answer } of refusals) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: "INVALID_INPUT" });
      expect(answer.body.error!.message.startsWith(`${field}: `), answer.body.error!.message).toBe(true);
      expect(answer.body.error!.message).toMatch(LONE);
    }
    expect(refusals[0]!.answer.body.error!.message).toBe("content: holds a lone surrogate (U+D800); send valid Unicode text.");
    // Valid Unicode beyond the BMP (a surrogate pair) is text like any other.
    expect((await signIn({ email: "lena@acme.example", password: PASSWORD + "🚀" })).status).toBe(401);
    expect((await signIn({ email: "lena@acme.example", password: PASSWORD })).status).toBe(200);
  });

  it("a body that is not valid UTF-8 is a 400 saying so, and nothing is stored with U+FFFD in its place", async () => {
    const path = `project_bytes_${++unique}.md`;
    const json = Buffer.from(JSON.stringify({ path, content: memory(" BAD") }));
    const at = json.indexOf("BAD");
    json[at] = 0xff;
    json[at + 1] = 0xfe;
    const refused = await projectCall("proposals", new Uint8Array(json));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: "INVALID_INPUT", message: "The request body is not valid UTF-8; send the JSON encoded as UTF-8." });
    expect(await world.db.proposal.count({ where: { path } })).toBe(0);
  });

  it("an empty token name, a token with no project and an empty recall prompt are refused in words a person acts on", async () => {
    const tokens = await handlerOf("tokens");
    const noName = await call(tokens, { path: "/api/tokens", body: { name: "  ", projectIds: [PROJECT] }, cookie: world.adminSession });
    expect(noName.body.error).toEqual({ code: "INVALID_INPUT", message: "name: give the token a name, such as the machine it is for." });
    const noProject = await call(tokens, { path: "/api/tokens", body: { name: "laptop", projectIds: [] }, cookie: world.adminSession });
    expect(noProject.body.error).toEqual({ code: "INVALID_INPUT", message: "projectIds: choose at least one project the token may reach." });
    const blank = await projectCall("recall", { query: "   " });
    expect(blank.body.error).toEqual({ code: "INVALID_INPUT", message: "query: write the prompt to recall memories for." });
  });

  it("a body nested deeper than 64 levels is a 400 saying so, well under the size cap, on routes and sign-in alike", async () => {
    const deep = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
    const proposal = `{"path":"project_deep_${++unique}.md","content":${JSON.stringify(memory())},"provenance":${deep(2_500)}}`;
    const refused = await projectCall("proposals", proposal);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: "INVALID_INPUT", message: "body: nested deeper than 64 levels." });
    const signInDeep = await signIn(`{"email":"lena@acme.example","password":"x","extra":${deep(2_500)}}`);
    expect(signInDeep.status).toBe(400);
    expect(signInDeep.body.error?.message).toBe("body: nested deeper than 64 levels.");
    // Provenance a few levels deep is still taken.
    const shallow = await projectCall("proposals", `{"path":"project_deep_${++unique}.md","content":${JSON.stringify(memory())},"provenance":{"evidence":${deep(10)}}}`);
    expect(shallow.status, JSON.stringify(shallow.body)).toBe(201);
  });

  it("page and pageSize out of range or not numbers are a 400 naming them on every paged route; the documented defaults and maxima hold", async () => {
    const cases: [string, string, RegExp][] = [
      ["", "pageSize=501", /^pageSize: Too big/],
      ["", "page=-1", /^page: Too small/],
      ["", "page=0", /^page: Too small/],
      ["", "pageSize=abc", /^pageSize: /],
      ["", "page=1.5", /^page: /],
      ["freshness", "pageSize=9999", /^pageSize: Too big/],
      ["freshness", "page=-1", /^page: Too small/],
      ["freshness", "pageSize=abc", /^pageSize: /],
      ["sync", "pageSize=2001", /^pageSize: Too big/],
      ["sync", "page=-1", /^page: Too small/],
      // Numbers only as digits: what JavaScript's Number() would also read is refused.
      ...["page=0x2", "pageSize=1e1", "pageSize=0b11", "page=%2B2", "page=%20%202", "pageSize=3.0"].map((query): [string, string, RegExp] => ["", query, /^page(Size)?: must be a whole number written in digits/]),
      ["freshness", "page=1e0", /^page: must be a whole number/],
      ["sync", "pageSize=0x10", /^pageSize: must be a whole number/],
    ];
    for (const [file, query, message] of cases) {
      const answer = await getPage(file, query);
      expect(answer.status, `${file} ?${query}`).toBe(400);
      expect(answer.body.error?.code).toBe("INVALID_INPUT");
      expect(answer.body.error?.message, `${file} ?${query}`).toMatch(message);
    }
    expect((await getPage("", "")).body).toMatchObject({ page: 1, pageSize: 100 });
    expect((await getPage("", "pageSize=7&page=2")).body).toMatchObject({ page: 2, pageSize: 7 });
    // Past the end: the page asked for, empty (never the last page again: a client reading until an empty page stops).
    const pastEnd = (await getPage("", "pageSize=10&page=50")).body as unknown as { page: number; pageCount: number; memories: unknown[] };
    expect(pastEnd).toMatchObject({ page: 50, memories: [] });
    expect(pastEnd.pageCount).toBeLessThan(50);
    expect((await getPage("", "pageSize=500")).body).toMatchObject({ pageSize: 500 });
    expect((await getPage("freshness", "")).body).toMatchObject({ page: 1, pageSize: 100 });
    expect((await getPage("freshness", "pageSize=500")).body).toMatchObject({ pageSize: 500 });
    expect((await getPage("sync", "peek=1")).status).toBe(200);
    expect((await getPage("sync", "peek=1&pageSize=2000")).status).toBe(200);
  });

  it("a client version holding a credential is a 400 naming it, on sync and in sync provenance: nothing is stored, and the lead's view never shows it", async () => {
    const token = ["ghp", "_", "Zt7Qm2Vx9Lp4Rk8Wn3Jc6Hb1Fd5Gs0Ay7Ke2"].join("");
    const refused = "holds what looks like a credential (github-classic-token); send the client's version, e.g. 0.1.0.";
    // As sent, and between the separators a version may hold (the text scanner passes the second).
    for (const client of [token, `0.1_${token}`]) {
      const answer = await getPage("sync", `client=${client}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: "INVALID_INPUT", message: `client: ${refused}` });
    }
    const path = `project_client_${++unique}.md`;
    const proposal = await projectCall("sync/proposals", { path, content: memory(), baseBlob: null, idempotencyKey: `client-key-${unique}-0123456789`, provenance: { checkout: "/src/acme", baseCommit: null, clientVersion: token } });
    expect(proposal.status).toBe(400);
    expect(proposal.body.error).toEqual({ code: "INVALID_INPUT", message: `provenance.clientVersion: ${refused}` });
    expect(await world.db.proposal.count({ where: { path } })).toBe(0);
    expect(await world.db.memberSync.count({ where: { clientVersion: { contains: token.slice(4) } } })).toBe(0);

    // What the CLI and the benchmarks send still works, and is what the lead sees.
    const members = async () => (await call(await handlerOf("projects/[id]/sync/members", "GET"), { path: `/api/projects/${PROJECT}/sync/members`, params: { id: PROJECT }, method: "GET", ...asLena() })).body as { members: { email: string; clientVersion: string | null }[] };
    for (const client of ["bench", "0.1.0"]) expect((await getPage("sync", `client=${client}`)).status).toBe(200);
    const shown = await members();
    expect(shown.members.find((member) => member.email === "lena@acme.example")?.clientVersion).toBe("0.1.0");
    expect(JSON.stringify(shown)).not.toContain(token.slice(4));
    // Anything else is not a version either: refused by name rather than stored as "unknown".
    expect((await getPage("sync", `client=${"9".repeat(65)}`)).body.error?.message).toMatch(/^client: must be the client's version/);
  });

  it("sync's peek is 1 (record nothing) or 0: any other value is a 400 naming it, and the member's sync is not recorded", async () => {
    const lena = await world.db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
    const recorded = async () => (await world.db.memberSync.findUnique({ where: { projectId_userId: { projectId: PROJECT, userId: lena.id } } }))?.lastSyncAt.getTime() ?? null;
    expect((await getPage("sync", "pageSize=1")).status).toBe(200);
    const before = await recorded();
    for (const value of ["true", "yes", "2", "", "01"]) {
      const answer = await getPage("sync", `peek=${value}&pageSize=1`);
      expect(answer.status, `peek=${value}`).toBe(400);
      expect(answer.body.error).toEqual({ code: "INVALID_INPUT", message: "peek: must be 1 (look without recording the sync) or 0; leave it out to record it." });
    }
    expect((await getPage("sync", "peek=1&pageSize=1")).status).toBe(200);
    expect(await recorded()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await getPage("sync", "peek=0&pageSize=1")).status).toBe(200);
    expect(await recorded()).toBeGreaterThan(before!);
  });

  it("an extraction whose session id holds a credential is a 400 naming sessionId, sent or read from the lines, before anything is stored", async () => {
    const token = ["ghp", "_", "Hy6Tg5Rf4Ed3Ws2Qa1Zx9Cv8Bn7Mk6Lp5Oi4U"].join("");
    const session = new TranscriptBuilder();
    session.user("From now on, integration tests in this repo hit a real PostgreSQL, never mocks.");
    const extracted = () => world.db.proposal.count({ where: { source: "extraction" } }); // the demo has some
    const before = await extracted();
    const answers = [
      await projectCall("extractions", { transcript: session.text(), sessionId: token }),
      await projectCall("extractions", { transcript: session.text().replaceAll(session.sessionId, token) }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: "INVALID_INPUT", message: "sessionId: it holds what looks like a credential (github-classic-token); give the Claude Code session id." });
    }
    expect(await world.db.extractionSession.count({ where: { sessionId: { contains: token.slice(4) } } })).toBe(0);
    expect(await extracted()).toBe(before);
  });

  it("a sign-in body with a field sign-in does not take is a 400 naming it, before the password is checked; the fields better-auth reads still sign in", async () => {
    const token = ["ghp", "_", "Zt7Qm2Vx9Lp4Rk8Wn3Jc6Hb1Fd5Gs0Ay7Ke2"].join("");
    const lena = await world.db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
    const sessions = () => world.db.session.count({ where: { userId: lena.id } });
    const signedIn = await sessions();
    const unknown = await signIn({ email: "lena@acme.example", password: PASSWORD, rememberMe2: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({ code: "INVALID_INPUT", message: 'body: Unrecognized key: "rememberMe2".' });
    const tokenKey = await signIn({ email: "lena@acme.example", password: PASSWORD, [token]: 1 });
    expect(tokenKey.status).toBe(400);
    expect(tokenKey.body.error?.message).toMatch(/^body: Unrecognized key: /);
    expect(JSON.stringify(tokenKey.body)).not.toContain(token.slice(4));
    // A form (better-auth would read one) skips none of this: sign-in takes JSON only.
    const form = await (await handlerOf("auth/[...all]"))(
      new Request(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { origin: BASE, "x-forwarded-for": "192.0.2.77", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ email: "lena@acme.example", password: PASSWORD, rememberMe2: "true" }).toString() }),
      { params: Promise.resolve({ all: ["sign-in", "email"] }) },
    );
    expect(form.status).toBe(415);
    expect(await sessions()).toBe(signedIn);

    // Every field better-auth's email sign-in reads (checked against the library, so an upgrade that adds one shows here).
    const { getAuth } = await import("@/app/_server/context");
    const known = { email: "lena@acme.example", password: PASSWORD, rememberMe: false, callbackURL: "/" };
    const taken = ((await getAuth()).api.signInEmail.options.body as unknown as { shape: Record<string, unknown> }).shape;
    expect(Object.keys(known).sort()).toEqual(Object.keys(taken).sort());
    const answer = await signIn(known);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await sessions()).toBe(signedIn + 1);
  });

  it("a path that names no API endpoint answers a JSON 404 for every method, to anyone", async () => {
    const catchAll = (await import("@/app/api/[...unknown]/route")) as Record<string, Handler>;
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      for (const credentials of [{}, { cookie: world.adminSession }]) {
        const answer = await call(catchAll[method]!, { path: "/api/nope/deeper", params: { unknown: ["nope", "deeper"] }, method, ...credentials });
        expect(answer.status, method).toBe(404);
        expect(answer.contentType).toMatch(/^application\/json/);
        expect(answer.body.error).toEqual({ code: "NOT_FOUND", message: "There is no such API endpoint; README.md lists them." });
      }
    }
  });
});
