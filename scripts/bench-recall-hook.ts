/**
 * Benchmark for issue 12, the UserPromptSubmit hook (`teammem recall-hook`): the wall time a
 * member's prompt waits, from spawn to exit of a fresh process, as Claude Code runs it, beside
 * `teammem --version` (the CLI's start-up floor) in the same run. Prints median and p95 and the
 * ratios; asserts nothing (timings vary by machine).
 * Run: npm run bench:hook [-- runs]   (default 15 runs per contender; 5 for the hanging server)
 *
 * The server is the product's own route handlers (GET /api/projects, POST …/recall) over the
 * embedded demo (a real store and SQLite file, local ranker, no model key) behind a plain HTTP
 * listener in this process; the member home and checkout are laid out as Claude Code lays them out.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { COMPILED_ENTRY } from "../cli/find-compiled-cli.mjs";

const runs = Number(process.argv[2] ?? 15);
// The compiled entry itself, not the launcher: in a working tree where others are editing, the
// launcher finds the bundle stale and runs the TypeScript through tsx, which is not what members run.
let cli = "";
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Timing = { median: number; p95: number };

async function main() {
  execFileSync(process.execPath, [path.resolve("scripts/build-cli.mjs"), "--if-stale"], { stdio: "ignore" });
  const world = await mkdtemp(path.join(os.tmpdir(), "teammem-bench-hook-"));
  cli = path.join(world, "run-compiled.mjs");
  await writeFile(cli, `const { main } = await import(${JSON.stringify(COMPILED_ENTRY)});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  process.env.TEAMMEM_DATA_DIR = path.join(world, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "bench-hook-password-1";
  delete process.env.ANTHROPIC_API_KEY;
  const { loadConfig } = await import("../lib/config");
  const { runSetup } = await import("../lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getDatabase } = await import("../app/_server/context");
  const { createApiToken } = await import("../lib/auth/manage-api-tokens");
  const db = getDatabase();
  const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
  const { token } = await createApiToken(db, { userId: omar.id, email: omar.email, name: omar.name, isAdmin: false, via: "session", tokenProjectIds: null }, { name: "bench", projectIds: ["acme-checkout"] });

  let hang = false;
  const projects = (await import("../app/api/projects/route")).GET as unknown as Handler;
  const recall = (await import("../app/api/projects/[id]/recall/route")).POST as unknown as Handler;
  const { serveWebHandler } = await import("../lib/http/serve-web-handler");
  const { MAX_BODY_BYTES } = await import("../app/_server/body");
  const server = createServer((incoming, outgoing) => {
    const match = /^\/api\/projects\/([^/]+)\/recall$/.exec(incoming.url ?? "");
    const handler = match ? recall : projects;
    // As the production server hands a request to a route module (scripts/serve.ts); a hanging server never answers.
    void serveWebHandler(incoming, outgoing, (request) => (hang ? new Promise<Response>(() => {}) : handler(request, { params: Promise.resolve<Record<string, string>>(match ? { id: match[1]! } : {}) })), {
      url: new URL(incoming.url ?? "/", "http://127.0.0.1"),
      maxBodyBytes: MAX_BODY_BYTES,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const home = path.join(world, "home");
  const checkout = path.join(home, "src", "checkout");
  await mkdir(checkout, { recursive: true });
  execFileSync("git", ["init", "-q", checkout]);
  execFileSync("git", ["-C", checkout, "remote", "add", "origin", "git@github.com:acme/checkout.git"]);
  const env = { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude"), XDG_CONFIG_HOME: path.join(home, ".config"), TEAMMEM_TOKEN: token, TEAMMEM_SERVER: serverUrl };

  let session = 0;
  const hook = (prompt: string, extraEnv: Record<string, string> = {}) => () =>
    run(["recall-hook"], { ...env, ...extraEnv }, JSON.stringify({ session_id: `bench-${session++}`, prompt, cwd: checkout, hook_event_name: "UserPromptSubmit", transcript_path: "/x.jsonl" }));
  const floor = await time(() => run(["--version"], env, ""), runs);
  const prompt = "should the integration tests use a real database or mocks";
  const results: [string, Timing][] = [
    ["one-word prompt (skipped)", await time(hook("continue"), runs)],
    ["recall, server answering (new session each run)", await time(hook(prompt), runs)],
    ["server unreachable (closed port)", await time(hook(prompt, { TEAMMEM_SERVER: "http://127.0.0.1:9" }), runs)],
  ];
  // A member who has synced a 5,000-memory project: the hook reads the sync state beside the
  // memory directory (project and held commit) before every prompt.
  const { resolveMemoryDir } = await import("../lib/memdir/resolve-memory-dir");
  const { emptySyncState, saveSyncState } = await import("../lib/sync/sync-state");
  const { memoryDir } = await resolveMemoryDir({ env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR }, homeDir: home, cwd: checkout });
  const synced = emptySyncState(serverUrl, "acme-checkout");
  synced.syncedCommit = execFileSync("git", ["-C", loadConfig().storeCloneDir, "rev-parse", "HEAD"]).toString().trim();
  for (let index = 0; index < 5_000; index++) {
    const blob = createHash("sha1").update(String(index)).digest("hex");
    synced.files[`project_bench_${index}.md`] = { blob, local: blob };
    synced.seen[`project_bench_${index}.md`] = { size: 300 + index, mtimeMs: 1_764_650_000_000 + index * 1.5, ino: 1_000_000 + index, hash: blob, problem: null };
  }
  await saveSyncState(memoryDir, synced);
  results.push(["recall, member synced 5,000 memories", await time(hook(prompt), runs)]);
  hang = true;
  results.push(["server never answers (budget 900 ms)", await time(hook(prompt), Math.min(runs, 5))]);
  server.close();
  await db.$disconnect();
  await rm(world, { recursive: true, force: true });

  console.log(`teammem recall-hook, ${runs} runs each, wall time from spawn to exit (ms)`);
  console.log(`${"teammem --version (floor)".padEnd(52)} median ${floor.median.toFixed(0).padStart(5)}  p95 ${floor.p95.toFixed(0).padStart(5)}`);
  for (const [name, timing] of results) {
    console.log(`${name.padEnd(52)} median ${timing.median.toFixed(0).padStart(5)}  p95 ${timing.p95.toFixed(0).padStart(5)}  ×${(timing.median / floor.median).toFixed(2)} of the floor`);
  }
}

function run(args: string[], env: Record<string, string>, stdin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], { env: env as NodeJS.ProcessEnv, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`${args.join(" ")} exited ${code}`))));
    child.stdin.end(stdin);
  });
}

async function time(once: () => Promise<number>, count: number): Promise<Timing> {
  await once(); // warms the page cache (and, for recall, the project lookup and the server's caches)
  const times: number[] = [];
  for (let index = 0; index < count; index++) times.push(await once());
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]! };
}

await main();
