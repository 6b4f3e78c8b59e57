import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A repository URL that would name another repository once decoded or resolved (%2e%2e, an
 * escaped slash, backslashes) is refused with 400 naming the field, as the plain `..` is, on
 * create and on a change; nothing reaches teammem.json.
 */
const BASE = "http://127.0.0.1:3000";
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Answer = { status: number; body: { error?: { code: string; message: string }; project?: { repoUrls: string[] } } };

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;
let unique = 0;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-repo-url-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "repo-url-password";
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getAuth } = await import("@/app/_server/context");
  // The dashboard's way: an admin's session (a token reaches only the projects it names).
  const signedIn = await (await getAuth()).api.signInEmail({ body: { email: "admin@teammem.local", password: "repo-url-password" }, asResponse: true });
  const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  return { cookie, storeRemote: loadConfig().storeRemote, create: (await import("@/app/api/projects/route")).POST, change: (await import("@/app/api/projects/[id]/route")).PATCH };
}

async function call(handler: unknown, method: string, url: string, body: unknown, params: Record<string, string> = {}): Promise<Answer> {
  const headers = new Headers({ origin: BASE, "x-forwarded-for": "192.0.2.77", cookie: world.cookie, "content-type": "application/json" });
  const response = await (handler as Handler)(new Request(BASE + url, { method, headers, body: JSON.stringify(body) }), { params: Promise.resolve(params) });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const manifest = () => execFileSync("git", ["--git-dir", world.storeRemote, "show", "main:teammem.json"], { encoding: "utf8" });

const DISGUISED = [
  "https://github.com/acme/checkout/%2e%2e/payments",
  "https://github.com/acme/checkout/%2E%2E/payments",
  "https://github.com/acme/checkout/.%2e/payments",
  "https://github.com/acme/checkout/%2e%2E/payments",
  "https://github.com/acme/checkout/%2e/payments",
  "ssh://git@github.com/acme/checkout/%2e%2e/payments",
  "git://github.com/acme/%2e%2e/payments",
  "https://github.com/acme/checkout/..?tab=code",
  "https://github.com/acme/checkout\\..\\payments",
  "https://github.com/acme%2fpayments",
  "https://github.com/acme%2Fpayments",
  "https://github.com/acme%5cpayments",
];

describe("repository URLs with escaped or hidden path steps", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 60_000);
  afterAll(async () => {
    const { getDatabase } = await import("@/app/_server/context");
    await getDatabase().$disconnect();
    await rm(root, { recursive: true, force: true });
  });

  it("are refused on create with 400 naming the field, like the plain ..", async () => {
    const plain = await call(world.create, "POST", "/api/projects", { id: `plain-${++unique}`, name: `Plain ${unique}`, repoUrls: ["https://github.com/acme/checkout/../payments"] });
    expect(plain.status).toBe(400);
    for (const url of DISGUISED) {
      const id = `disguised-${++unique}`;
      const answer = await call(world.create, "POST", "/api/projects", { id, name: `Disguised ${unique}`, repoUrls: ["github.com/acme/ok", url] });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error?.message, url).toMatch(/^repoUrls\.1: .* is not a repository URL: /);
      expect(manifest(), url).not.toContain(id);
    }
    expect(manifest()).not.toContain("github.com/acme/payments");
  });

  it("are refused when a project's URLs change, and the URLs stay as they were", async () => {
    const id = `kept-${++unique}`;
    const created = await call(world.create, "POST", "/api/projects", { id, name: `Kept ${unique}`, repoUrls: ["https://github.com/acme/kept.git"] });
    expect(created.status).toBe(201);
    for (const url of DISGUISED) {
      const answer = await call(world.change, "PATCH", `/api/projects/${id}`, { repoUrls: [url] }, { id });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error?.message, url).toMatch(/^repoUrls\.0: /);
    }
    expect(manifest()).toContain("github.com/acme/kept");
    expect(manifest()).not.toContain("github.com/acme/payments");
  });

  it("still takes an escaped character that changes no path step", async () => {
    const created = await call(world.create, "POST", "/api/projects", { id: `escaped-${++unique}`, name: `Escaped ${unique}`, repoUrls: ["https://github.com/acme/check%2Dout%2egit"] });
    expect(created.status).toBe(201);
    expect(created.body.project?.repoUrls).toEqual(["github.com/acme/check-out"]);
  });
});
