import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The project routes as the dashboard and the CLI reach them: route handlers with real sessions
 * and tokens over a real store and SQLite file, and `teammem projects` run as a separate process
 * against them over HTTP.
 */
const PASSWORD = "projects-api-password";
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Record<string, unknown>;

let root = "";
let base = "";
let server: http.Server;
let world: Awaited<ReturnType<typeof buildWorld>>;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-projects-api-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const { createApiToken } = await import("@/lib/auth/manage-api-tokens");
  const auth = await getAuth();
  const db = getDatabase();
  const sessions: Record<string, string> = {};
  const callers: Record<string, { userId: string; email: string; name: string; isAdmin: boolean; via: "session"; tokenProjectIds: null }> = {};
  for (const [who, email] of [["admin", "admin@teammem.local"], ["lena", "lena@acme.example"]] as const) {
    const response = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true, headers: new Headers({ "x-forwarded-for": `192.0.2.${who.length}` }) });
    sessions[who] = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    callers[who] = { userId: user.id, email, name: user.name, isAdmin: user.isAdmin, via: "session", tokenProjectIds: null };
  }
  const token = async (who: "admin" | "lena", projectIds: string[]) => (await createApiToken(db, callers[who]!, { name: `cli ${who}`, projectIds })).token;
  const routes = { list: (await import("@/app/api/projects/route")) as RouteModule, one: (await import("@/app/api/projects/[id]/route")) as RouteModule };
  return { db, sessions, token, routes };
}

/** Calls a route handler as the dashboard does: session cookie, same origin. */
async function callAs(who: "admin" | "lena", method: string, url: string, body?: unknown): Promise<{ status: number; body: { error?: { message: string } } & Record<string, unknown> }> {
  const response = await dispatch(new Request(`${base}${url}`, {
    method,
    headers: { cookie: world.sessions[who]!, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
  return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
}

function dispatch(request: Request): Promise<Response> {
  const match = /^\/api\/projects(?:\/([^/]+))?$/.exec(new URL(request.url).pathname);
  const handler = match ? ((match[1] ? world.routes.one : world.routes.list)[request.method] as Handler | undefined) : undefined;
  if (!match || !handler) return Promise.resolve(Response.json({ error: { code: "NOT_FOUND", message: "no such route here" } }, { status: 404 }));
  const params: Record<string, string> = match[1] ? { id: decodeURIComponent(match[1]) } : {};
  return handler(request, { params: Promise.resolve(params) });
}

/** Runs the real CLI in its own process (asynchronously: the server answering it lives in this one). */
function teammem(args: string[], token: string, overrides: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { NODE_ENV: "test" as const, PATH: process.env.PATH ?? "", HOME: root, XDG_CONFIG_HOME: path.join(root, "cli-config"), TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_SERVER: base, TEAMMEM_TOKEN: token, ...overrides };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("cli/teammem.mjs"), "projects", ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  server = http.createServer((incoming, outgoing) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(key, value);
      const response = await dispatch(new Request(`${base}${incoming.url}`, { method: incoming.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
      outgoing.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TEAMMEM_PUBLIC_URL = base;
  world = await buildWorld();
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await world?.db.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("project routes", () => {
  it("an admin creates a project (201); its empty page answers 200 with no memories; duplicates are 409 and bad fields 400 naming the field", async () => {
    const created = await callAs("admin", "POST", "/api/projects", { name: "Web Shop", repoUrls: ["https://github.com/acme/web-shop.git"], leadEmail: "lena@acme.example" });
    expect(created.status).toBe(201);
    expect(created.body.project).toMatchObject({ id: "acme-web-shop", name: "Web Shop", repoUrls: ["github.com/acme/web-shop"], memoryCount: 0, leadCount: 1 });

    const page = await callAs("lena", "GET", "/api/projects/acme-web-shop");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ project: { id: "acme-web-shop", memoryCount: 0 }, memories: [] });
    const list = await callAs("lena", "GET", "/api/projects");
    expect((list.body.projects as { id: string }[]).map((project) => project.id)).toContain("acme-web-shop");

    // A project's memories come a page at a time, newest first, so the answer stays small at any size.
    const first = await callAs("lena", "GET", "/api/projects/acme-checkout?pageSize=7");
    const second = await callAs("lena", "GET", "/api/projects/acme-checkout?pageSize=7&page=2");
    const everything = await callAs("lena", "GET", "/api/projects/acme-checkout?pageSize=500");
    const paths = (answer: typeof first) => (answer.body.memories as { path: string }[]).map((memory) => memory.path);
    expect(first.body).toMatchObject({ page: 1, pageSize: 7, pageCount: Math.ceil(paths(everything).length / 7) });
    expect([...paths(first), ...paths(second)]).toEqual(paths(everything).slice(0, 14));
    expect((await callAs("lena", "GET", "/api/projects/acme-checkout")).body).toMatchObject({ page: 1, pageSize: 100 });

    const duplicate = await callAs("admin", "POST", "/api/projects", { id: "acme-web-shop", name: "Again" });
    expect([duplicate.status, duplicate.body.error?.message]).toEqual([409, 'A project with the id "acme-web-shop" already exists; choose another id.']);
    const badUrl = await callAs("admin", "POST", "/api/projects", { name: "X", repoUrls: ["github.com/acme/ok", "mailto:someone"] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error?.message).toMatch(/^repoUrls\.1: /);
    expect((await callAs("admin", "POST", "/api/projects", { name: "X", id: "UPPER" })).body.error?.message).toMatch(/^id: /);
    expect((await callAs("admin", "POST", "/api/projects", { name: 5 })).body.error?.message).toMatch(/^name: /);
    expect((await callAs("admin", "POST", "/api/projects", { name: "X", owner: "me" })).status).toBe(400);
    expect((await callAs("lena", "POST", "/api/projects", { name: "Lena's own" })).status).toBe(403);
  });

  it("a lead renames and archives her project; the archived project leaves her list; only admins may list archived ones", async () => {
    await callAs("admin", "POST", "/api/projects", { id: "lena-tools", name: "Tools", leadEmail: "lena@acme.example" });
    const renamed = await callAs("lena", "PATCH", "/api/projects/lena-tools", { name: "Internal Tools", allowSelfApproval: true });
    expect(renamed.body.project).toMatchObject({ name: "Internal Tools", allowSelfApproval: true });
    expect((await callAs("lena", "PATCH", "/api/projects/lena-tools", { repoUrls: ["not a url"] })).body.error?.message).toMatch(/^repoUrls\.0: /);

    expect((await callAs("lena", "PATCH", "/api/projects/lena-tools", { archived: true })).status).toBe(200);
    const lenaList = await callAs("lena", "GET", "/api/projects");
    expect((lenaList.body.projects as { id: string }[]).map((project) => project.id)).not.toContain("lena-tools");
    expect((await callAs("lena", "GET", "/api/projects?archived=include")).status).toBe(403);
    const adminList = await callAs("admin", "GET", "/api/projects?archived=include");
    expect((adminList.body.projects as { id: string; archivedAt: string | null }[]).find((project) => project.id === "lena-tools")?.archivedAt).toEqual(expect.any(String));
    expect((await callAs("admin", "GET", "/api/projects")).body.projects).not.toContainEqual(expect.objectContaining({ id: "lena-tools" }));
  });
});

describe("teammem projects", () => {
  it("creates, lists, archives and unarchives through the API with exit codes 0, 1 and 2", async () => {
    const adminToken = await world.token("admin", ["acme-checkout"]);
    const created = await teammem(["create", "--name", "CLI Service", "--repo", "git@github.com:acme/cli-service.git", "--repo", "https://gitlab.example.com/acme/cli-service/", "--lead", "lena@acme.example", "--json"], adminToken);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).project).toMatchObject({ id: "acme-cli-service", repoUrls: ["github.com/acme/cli-service", "gitlab.example.com/acme/cli-service"] });

    const again = await teammem(["create", "--id", "acme-cli-service", "--name", "Again"], adminToken);
    expect([again.code, again.stderr.trim()]).toEqual([1, 'teammem: A project with the id "acme-cli-service" already exists; choose another id.']);
    const bad = await teammem(["create", "--name", "Bad", "--repo", "not a url"], adminToken);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/repoUrls\.0: "not a url" is not a repository URL/);
    expect((await teammem(["archive"], adminToken)).code).toBe(2);

    const lenaToken = await world.token("lena", ["acme-checkout", "acme-cli-service"]);
    const listed = await teammem(["list"], lenaToken);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^acme-cli-service\s+CLI Service {2}\(0 memories, 1 members\) {2}github\.com\/acme\/cli-service/m);
    expect((await teammem(["create", "--name", "Not allowed"], lenaToken)).stderr).toMatch(/Only an admin/);

    // Tokens reach only projects that are listed, so this one is made before archiving.
    const adminWide = await world.token("admin", ["acme-checkout", "acme-cli-service"]);
    const archived = await teammem(["archive", "acme-cli-service"], lenaToken);
    expect([archived.code, archived.stdout.trim()]).toEqual([0, "Archived acme-cli-service (CLI Service)."]);
    expect((await teammem(["list"], lenaToken)).stdout).not.toContain("acme-cli-service");
    const all = JSON.parse((await teammem(["list", "--archived", "--json"], adminWide)).stdout) as { projects: { id: string; archivedAt: string | null }[] };
    expect(all.projects.find((project) => project.id === "acme-cli-service")?.archivedAt).toEqual(expect.any(String));
    expect((await teammem(["unarchive", "acme-cli-service"], lenaToken)).code).toBe(0);
    expect((await teammem(["list"], lenaToken)).stdout).toContain("acme-cli-service");
  }, 120_000);

  it("sends the token to TEAMMEM_SERVER only: never to the server's own address, and a saved token never to another server", async () => {
    const trap = await listenForStrayRequests();
    try {
      const lenaToken = await world.token("lena", ["acme-checkout"]);
      // TEAMMEM_PUBLIC_URL is the dashboard's address, a server setting: the CLI does not go there.
      const listed = await teammem(["list", "--json"], lenaToken, { TEAMMEM_PUBLIC_URL: trap.url });
      expect(listed.stderr).toBe("");
      expect(JSON.parse(listed.stdout).projects).toContainEqual(expect.objectContaining({ id: "acme-checkout" }));

      const configHome = await mkdtemp(path.join(root, "saved-login-"));
      await mkdir(path.join(configHome, "teammem"));
      await writeFile(path.join(configHome, "teammem", "credentials.json"), JSON.stringify({ server: base, token: lenaToken }));
      const elsewhere = await teammem(["archive", "acme-checkout"], "", { XDG_CONFIG_HOME: configHome, TEAMMEM_TOKEN: "", TEAMMEM_SERVER: trap.url });
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toContain(`the saved login is for ${base}`);
      expect(trap.requests).toEqual([]);
    } finally {
      await trap.close();
    }
  }, 60_000);
});

/** A server that records what reaches it: the CLI must send nothing here. */
async function listenForStrayRequests(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const trap = http.createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url} ${incoming.headers.authorization ?? ""}`);
    outgoing.writeHead(500).end();
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(trap.address() as AddressInfo).port}`, requests, close: () => new Promise((resolve) => trap.close(() => resolve())) };
}
