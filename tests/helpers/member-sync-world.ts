import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { MAX_BODY_BYTES } from "@/app/_server/body";
import { serveWebHandler } from "@/lib/http/serve-web-handler";
import { privateMemoryDir, teamMemoryDir } from "@/lib/memdir/paths";
import { runSync } from "@/lib/sync/run-sync";
import type { SyncReport } from "@/lib/sync/sync-report";
import { loadApiRoutes, type LoadedRoute } from "./api-routes";

/**
 * A team server for member-sync tests: the real route handlers behind a real HTTP listener (so
 * `teammem sync`, in-process or as the compiled CLI, talks HTTP), a real store and SQLite file
 * with the demo team, API tokens for the members, and member homes laid out as Claude Code lays
 * them out, each with a real git checkout whose origin is the project's repository. Every request
 * is kept (method, URL, body) as the server's request log.
 */
export type SyncMember = { home: string; checkout: string; memoryDir: string; teamDir: string; token: string };
export type RecordedRequest = { method: string; url: string; body: string };
export const REPO_URL = "https://github.com/acme/checkout.git";
export const PROJECT = "acme-checkout";

export async function startSyncWorld() {
  const root = await mkdtemp(path.join(os.tmpdir(), "teammem-member-sync-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "member-sync-password";
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  const config = loadConfig();
  await runSetup(config);
  const { getDatabase } = await import("@/app/_server/context");
  const { createApiToken } = await import("@/lib/auth/manage-api-tokens");
  const db = getDatabase();
  await db.project.update({ where: { id: PROJECT }, data: { repoUrls: JSON.stringify(["github.com/acme/checkout"]) } });
  const userIds: Record<"lena" | "omar" | "priya", string> = { lena: "", omar: "", priya: "" };
  const tokens: Record<string, string> = {};
  for (const name of ["lena", "omar", "priya"] as const) {
    const user = await db.user.findUniqueOrThrow({ where: { email: `${name}@acme.example` } });
    userIds[name] = user.id;
    const caller = { userId: user.id, email: user.email, name: user.name, isAdmin: false, via: "session" as const, tokenProjectIds: null };
    tokens[name] = (await createApiToken(db, caller, { name: `sync ${name}`, projectIds: [PROJECT] })).token;
  }

  const routes = await loadApiRoutes();
  const requests: RecordedRequest[] = [];
  let base = "";
  let isOffline = false;
  // The next POST whose path ends so is handled, then its connection dropped: the answer is lost.
  let loseAnswerTo: string | null = null;
  const server = http.createServer((incoming, outgoing) => {
    // Offline: the connection is dropped, as when the network or the server is gone.
    if (isOffline) return void incoming.socket.destroy();
    // As the production server hands a request to a route module (scripts/serve.ts).
    void serveWebHandler(
      incoming,
      outgoing,
      async (request) => {
        requests.push({ method: request.method, url: incoming.url ?? "", body: await request.clone().text() });
        const response = await dispatch(routes, request);
        if (loseAnswerTo !== null && request.method === "POST" && (incoming.url ?? "").endsWith(loseAnswerTo)) {
          loseAnswerTo = null;
          incoming.socket.destroy();
        }
        return response;
      },
      { url: new URL(incoming.url ?? "/", base), maxBodyBytes: MAX_BODY_BYTES },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A member's machine: HOME with ~/.claude, and a checkout of the project's repository. */
  async function makeMemberHome(name: string): Promise<{ home: string; checkout: string }> {
    const home = path.join(root, `home-${name}`);
    const checkout = path.join(home, "work", "checkout");
    await mkdir(checkout, { recursive: true });
    execFileSync("git", ["init", "-q", checkout]);
    execFileSync("git", ["-C", checkout, "remote", "add", "origin", REPO_URL]);
    return { home, checkout };
  }

  /** The compiled CLI in its own process, as a member runs it (asynchronously: this process serves it). */
  function teammem(args: string[], options: { home: string; cwd: string; token: string; extraEnv?: Record<string, string> }): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
    const env = { NODE_ENV: "test" as const, PATH: process.env.PATH ?? "", HOME: options.home, XDG_CONFIG_HOME: path.join(options.home, ".config"), TEAMMEM_SERVER: base, TEAMMEM_TOKEN: options.token, ...options.extraEnv };
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [path.resolve("cli/teammem.mjs"), ...args], { env, cwd: options.cwd });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += String(chunk)));
      child.stderr.on("data", (chunk) => (stderr += String(chunk)));
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  async function stop(): Promise<void> {
    await new Promise((resolve) => server.close(resolve));
    await db.$disconnect();
    await rm(root, { recursive: true, force: true });
  }

  /** A member's machine with its memory and team/ folders named, syncing with `token` (Omar's by default). */
  async function makeMember(label: string, token = tokens.omar!): Promise<SyncMember> {
    const { home, checkout } = await makeMemberHome(label);
    const memoryDir = privateMemoryDir(path.join(home, ".claude"), checkout);
    return { home, checkout, memoryDir, teamDir: teamMemoryDir(memoryDir), token };
  }

  /** `teammem sync` in this process, as the member runs it in their checkout. */
  function syncAs(member: SyncMember, options: { isDryRun?: boolean; projectId?: string } = {}): Promise<SyncReport> {
    return runSync({
      config: { claudeCodeEnv: {}, homeDir: member.home, faultPoint: null },
      target: { server: base, token: member.token },
      cwd: member.checkout,
      projectId: options.projectId ?? null,
      isDryRun: options.isDryRun ?? false,
      clientVersion: "test",
      lockWaitMs: 1_000,
    });
  }

  return { root, config, db, userIds, tokens, requests, base: () => base, setOffline: (value: boolean) => (isOffline = value), loseNextAnswerTo: (pathEnd: string) => (loseAnswerTo = pathEnd), makeMemberHome, makeMember, syncAs, teammem, stop };
}

function dispatch(routes: LoadedRoute[], request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  for (const route of routes) {
    const [method, pattern] = route.key.split(" ") as [string, string];
    if (method !== request.method) continue;
    const names: string[] = [];
    const regex = new RegExp("^" + pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, name: string) => (names.push(name), "([^/]+)")) + "$");
    const match = regex.exec(pathname);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
    return route.handler(request, { params: Promise.resolve(params) });
  }
  return Promise.resolve(Response.json({ error: { code: "NOT_FOUND", message: "no such route" } }, { status: 404 }));
}
