/**
 * `npm run bench:load`: the server measured from outside, over HTTP on 127.0.0.1 only (issue 11).
 *
 *   1. a fresh data folder in a temp dir; setup seeds the demo project (scripts/start.ts --setup-only)
 *   2. the demo project grows to N memories, one commit each (git fast-import into the bare store)
 *      and a last commit with MEMORY.md regenerated
 *   3. the production build of the committed HEAD, in its own folder (`next build` under the shared
 *      build lock, once per commit), served as `npm start` serves it (scripts/serve.ts; `next start`
 *      for commits from before it) on its own port
 *   4. open-loop load (fixed arrival rate, bounded in count and time): recall at each rate (as the
 *      dashboard asks, with the manifest, and as the prompt hook asks, without), beside
 *      two floors at the same rate: a request refused before any work (GET /api/me, no
 *      credentials: routing + guard) and GET /api/health
 *   5. sequential: the /memories page, a memory page, submit a proposal, approve one at a time;
 *      then approvals 8 in flight; beside raw git plumbing for one commit in the same store
 *
 * Usage: npm run bench:load -- [--memories 10000] [--duration 20] [--rates 50,100,200]
 *          [--port 3200] [--approvals 10] [--pages 5] [--timeout 30] [--lock /tmp/teammem-e2e.lock | --lock none]
 *          [--source head|worktree|<commit>] [--postgres postgresql://…] [--skip-build] [--keep]
 *          [--out results.json] [--phases recall,pages,approve] [--profile DIR]
 * --phases runs only the named parts; --profile writes the servers' CPU profiles (.cpuprofile) to DIR.
 * With --postgres (a server URL; the run creates and drops a database of its own), a second
 * instance shares the database and the store, and approvals 8 in flight go to both.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { childProcessEnv } from "../lib/config";
import { DEMO_TEAM_MEMORIES } from "../lib/demo/demo-team-memories";
import { DEMO_MEMBERS, DEMO_PROJECT } from "../lib/demo/demo-team";
import { serializeMemory } from "../lib/memdir/frontmatter";
import { regenerateProjectIndex } from "../lib/store/regenerate-project-index";
import { projectDir } from "../lib/store/store-manifest";

const root = path.resolve(import.meta.dirname, "..");
const PASSWORD = "bench-password-123";
const HOST = "127.0.0.1";

const { values: flags } = parseArgs({
  options: {
    memories: { type: "string", default: "10000" },
    duration: { type: "string", default: "20" },
    rates: { type: "string", default: "50,100,200" },
    port: { type: "string", default: "3200" },
    approvals: { type: "string", default: "10" },
    pages: { type: "string", default: "5" },
    timeout: { type: "string", default: "30" },
    lock: { type: "string", default: "/tmp/teammem-e2e.lock" },
    "skip-build": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    out: { type: "string" },
    postgres: { type: "string" },
    source: { type: "string", default: "head" },
    phases: { type: "string", default: "recall,pages,approve" },
    profile: { type: "string" },
  },
});
const memoryCount = wholeNumber(flags.memories, "--memories");
const durationSeconds = wholeNumber(flags.duration, "--duration");
const rates = flags.rates.split(",").map((rate) => wholeNumber(rate, "--rates"));
const port = wholeNumber(flags.port, "--port");
const approvalCount = wholeNumber(flags.approvals, "--approvals");
const pageSamples = wholeNumber(flags.pages, "--pages");
// A client gives up after this long (a connect time-out in the field is about 30 s).
const REQUEST_TIMEOUT_MS = wholeNumber(flags.timeout, "--timeout") * 1000;
const base = `http://${HOST}:${port}`;
const phases = new Set(flags.phases.split(","));
for (const phase of phases) if (!["recall", "pages", "approve"].includes(phase)) throw new Error(`--phases: unknown part ${phase} (recall, pages, approve)`);

function wholeNumber(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0, not ${text}`);
  return value;
}

// ---------------------------------------------------------------- HTTP, loopback only

type Sample = { status: number; ms: number; error?: string };

type Sent = { status: number | null; ms: number; error?: string };

// What went wrong, for the report: the API's error code, else the HTTP status or the network error.
function failureLabel(status: number, body: string, error?: string): string {
  if (status === 0) return error ?? "network";
  const code = /"code"\s*:\s*"([A-Z_]+)"/.exec(body)?.[1];
  return code ?? `HTTP ${status}`;
}

// The load generator shares the machine's two cores with the server. node:http on keep-alive
// connections costs it a fraction of the CPU per request that fetch (undici) did, so less of the
// generator's own work lands in the server's percentiles; the floors go through the same client.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request, settled within REQUEST_TIMEOUT_MS whatever happens (the request is destroyed then). */
let resentAfterIdleClose = 0;

function send(pathname: string, init: RequestInit = {}, target: string = base, startedAt = performance.now(), isRetry = false): Promise<Sent> {
  const url = new URL(pathname, target);
  if (url.hostname !== HOST) throw new Error(`refusing to send load anywhere but ${HOST}: ${url.href}`);
  return new Promise<Sent>((resolve) => {
    let settled = false;
    const finish = (sent: Omit<Sent, "ms">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...sent, ms: performance.now() - startedAt });
    };
    const request = http.request(url, { method: init.method ?? "GET", headers: init.headers as http.OutgoingHttpHeaders | undefined, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", (error) => finish({ status: null, error: error.name }));
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        finish({ status, error: status >= 400 ? failureLabel(status, Buffer.concat(chunks).toString("utf8")) : undefined });
      });
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, error: "TimeoutError" });
    }, REQUEST_TIMEOUT_MS);
    request.on("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as idle (after 5 s) just as this request went
      // out on it. Sent again once on a new connection, as Node's documentation advises
      // (`request.reusedSocket`); the time counts from the first try, and the end says how many.
      if (request.reusedSocket && error.code === "ECONNRESET" && !settled && !isRetry) {
        resentAfterIdleClose += 1;
        settled = true;
        clearTimeout(timer);
        resolve(send(pathname, init, target, startedAt, true));
        return;
      }
      finish({ status: null, error: error.code ?? error.name });
    });
    request.end(typeof init.body === "string" ? init.body : undefined);
  });
}

async function sendJson<T>(pathname: string, init: RequestInit & { expect: number }): Promise<T> {
  const url = new URL(pathname, base);
  if (url.hostname !== HOST) throw new Error(`refusing to send anywhere but ${HOST}: ${url.href}`);
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
  const text = await response.text();
  if (response.status !== init.expect) throw new Error(`${init.method ?? "GET"} ${pathname}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

type RequestSpec = { pathname: string; init?: RequestInit };

/**
 * Open loop: request i leaves at start + i/rate whatever happened to the ones before, so a slow
 * server meets the same arrivals a real crowd of agents would send. Latency counts from the
 * scheduled time (a late generator does not hide queueing). Bounded: rate × duration requests,
 * each abandoned after --timeout seconds.
 */
async function openLoop(rate: number, seconds: number, spec: () => RequestSpec): Promise<Sample[]> {
  const total = rate * seconds;
  const startedAt = performance.now();
  const pending: Promise<Sample>[] = [];
  for (let index = 0; index < total; index += 1) {
    const due = startedAt + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const { pathname, init } = spec();
    pending.push(send(pathname, init).then(({ status, error }) => ({ status: status ?? 0, ms: performance.now() - due, error })));
  }
  return Promise.all(pending);
}

async function sequential(count: number, run: (index: number) => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let index = 0; index < count; index += 1) samples.push(await run(index));
  return samples;
}

async function timed(pathname: string, init?: RequestInit, target: string = base): Promise<Sample> {
  const { status, ms, error } = await send(pathname, init, target);
  return { status: status ?? 0, ms, error };
}

// ---------------------------------------------------------------- statistics and report

type Summary = { what: string; count: number; ok: number; busy503: number; otherErrors: number; networkErrors: number; p50: number; p95: number; p99: number; busyP50: number | null; perSecond: number | null; failures: Record<string, number> };

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

function summarize(what: string, samples: Sample[], okStatus: number, elapsedMs?: number): Summary {
  const ok = samples.filter((sample) => sample.status === okStatus).map((sample) => sample.ms).sort((a, b) => a - b);
  const busy = samples.filter((sample) => sample.status === 503).map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    what,
    count: samples.length,
    ok: ok.length,
    busy503: busy.length,
    otherErrors: samples.filter((sample) => sample.status !== 0 && sample.status !== okStatus && sample.status !== 503).length,
    networkErrors: samples.filter((sample) => sample.status === 0).length,
    p50: percentile(ok, 0.5),
    p95: percentile(ok, 0.95),
    p99: percentile(ok, 0.99),
    busyP50: busy.length ? percentile(busy, 0.5) : null,
    perSecond: elapsedMs ? (ok.length * 1000) / elapsedMs : null,
    failures: samples.filter((sample) => sample.status !== okStatus).reduce<Record<string, number>>((counts, sample) => {
      const label = sample.error ?? (sample.status === 0 ? "network" : `HTTP ${sample.status}`);
      counts[label] = (counts[label] ?? 0) + 1;
      return counts;
    }, {}),
  };
}

const results: Summary[] = [];
const ratios: { what: string; ratio: string }[] = [];

function record(summary: Summary): Summary {
  results.push(summary);
  const ms = (value: number | null) => (value === null || Number.isNaN(value) ? "–" : value.toFixed(1));
  console.log(
    `${summary.what.padEnd(44)} n=${summary.count} ok=${summary.ok} 503=${summary.busy503} err=${summary.otherErrors} net=${summary.networkErrors} ` +
      `p50=${ms(summary.p50)} p95=${ms(summary.p95)} p99=${ms(summary.p99)} ms` +
      (summary.busyP50 !== null ? ` (503 p50 ${ms(summary.busyP50)} ms)` : "") +
      (summary.perSecond !== null ? ` ${summary.perSecond.toFixed(2)}/s` : "") +
      (Object.keys(summary.failures).length ? ` failures ${failuresText(summary)}` : ""),
  );
  return summary;
}

function failuresText(summary: Summary): string {
  return Object.entries(summary.failures).map(([label, count]) => `${label} ×${count}`).join(", ") || "–";
}

function ratio(what: string, measured: number, floor: number): void {
  const text = Number.isFinite(measured / floor) ? `${(measured / floor).toFixed(1)}×` : "–";
  ratios.push({ what, ratio: text });
  console.log(`  ratio ${what}: ${text}`);
}

function markdownReport(): string {
  const ms = (value: number | null) => (value === null || Number.isNaN(value) ? "–" : value.toFixed(1));
  const lines = [
    `N = ${memoryCount} memories, ${flags.postgres ? "PostgreSQL, two instances for the approvals" : "SQLite, one instance"}, ${durationSeconds} s per rate, ${os.cpus().length} CPUs, node ${process.version}`,
    "",
    "| what | requests | ok | 503 | other errors | network errors/time-outs | p50 ms | p95 ms | p99 ms | 503 p50 ms | ok/s | failures |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map((row) => `| ${row.what} | ${row.count} | ${row.ok} | ${row.busy503} | ${row.otherErrors} | ${row.networkErrors} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.p99)} | ${ms(row.busyP50)} | ${row.perSecond === null ? "–" : row.perSecond.toFixed(2)} | ${failuresText(row)} |`),
    "",
    "| ratio to its floor, same run | |",
    "|---|---|",
    ...ratios.map((row) => `| ${row.what} | ${row.ratio} |`),
  ];
  return lines.join("\n");
}

// ---------------------------------------------------------------- the project, grown with git plumbing

const VOCABULARY = (
  "tenant invoice refund ledger export report quota webhook retry cache index replica shard cron backfill audit " +
  "currency pricing coupon trial seat plan upgrade downgrade proration receipt statement reconciliation payout " +
  "dispute chargeback fraud limit alert dashboard metric latency timeout deadlock vacuum partition archive"
).split(" ");

function benchMemory(number: number): { fileName: string; text: string } {
  const template = DEMO_TEAM_MEMORIES[number % DEMO_TEAM_MEMORIES.length]!;
  const words = [0, 1, 2, 3].map((offset) => VOCABULARY[(number * 7 + offset * 13) % VOCABULARY.length]).join(" ");
  const fileName = template.fileName.replace(/\.md$/, `_${number}.md`);
  const text = serializeMemory({ name: `${template.name} (${number})`, description: `${template.description} — ${words}`, type: template.type }, `${template.body}\n\nSeen with ${words} in case ${number}.\n`);
  return { fileName, text };
}

/** Appends `count` memories to main in the bare store, one backdated commit each, then MEMORY.md. */
function growProject(storeDir: string, count: number): void {
  const head = git(storeDir, ["rev-parse", "refs/heads/main"]).trim();
  const prefix = projectDir(DEMO_PROJECT.id);
  const authors = [DEMO_MEMBERS.lena, DEMO_MEMBERS.omar, DEMO_MEMBERS.priya];
  const now = Math.floor(Date.now() / 1000);
  const firstAt = now - 2 * 365 * 86_400;
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const indexFiles: { path: string; text: string; updatedAt: Date }[] = [];
  const lena = DEMO_MEMBERS.lena;
  for (let number = 0; number < count; number += 1) {
    const { fileName, text } = benchMemory(number);
    const author = authors[number % authors.length]!;
    const at = firstAt + Math.floor(((now - 3600 - firstAt) * number) / count);
    const message = `Add memory: ${fileName}\n\nSource: member\nApproved-by: ${lena.name} <${lena.email}>\n`;
    chunks.push(`commit refs/heads/main\nauthor ${author.name} <${author.email}> ${at} +0000\ncommitter ${lena.name} <${lena.email}> ${at} +0000\n${data(message)}`);
    if (number === 0) chunks.push(`from ${head}\n`);
    chunks.push(`M 100644 inline ${prefix}/${fileName}\n${data(text)}\n`);
    indexFiles.push({ path: fileName, text, updatedAt: new Date(at * 1000) });
  }
  const index = regenerateProjectIndex(indexFiles);
  chunks.push(`commit refs/heads/main\ncommitter ${lena.name} <${lena.email}> ${now - 60} +0000\n${data("Regenerate MEMORY.md\n")}M 100644 inline ${prefix}/MEMORY.md\n${data(index)}\n`);
  const result = spawnSync("git", ["fast-import", "--quiet"], { cwd: storeDir, input: chunks.join(""), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git fast-import failed: ${result.stderr}`);
}

function git(dir: string, args: string[], env: Record<string, string> = {}, input?: string): string {
  const result = spawnSync("git", args, { cwd: dir, encoding: "utf8", input, env: childProcessEnv(env), maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** The git work one approval needs, with nothing around it: blob, index entry, tree, commit, ref. */
function plumbingCommitSamples(storeDir: string, scratchDir: string, count: number): Sample[] {
  const repo = path.join(scratchDir, "plumbing.git");
  git(scratchDir, ["clone", "--quiet", "--bare", "--shared", storeDir, repo]);
  const env = { GIT_INDEX_FILE: path.join(scratchDir, "plumbing.index"), GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@localhost", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@localhost" };
  git(repo, ["read-tree", "refs/heads/main"], env);
  return Array.from({ length: count }, (_, index) => {
    const startedAt = performance.now();
    const blob = git(repo, ["hash-object", "-w", "--stdin"], env, benchMemory(900_000 + index).text).trim();
    git(repo, ["update-index", "--add", "--cacheinfo", `100644,${blob},${projectDir(DEMO_PROJECT.id)}/plumbing_${index}.md`], env);
    const tree = git(repo, ["write-tree"], env).trim();
    const commit = git(repo, ["commit-tree", tree, "-p", "refs/heads/main", "-m", `Add plumbing ${index}`], env).trim();
    git(repo, ["update-ref", "refs/heads/main", commit], env);
    return { status: 200, ms: performance.now() - startedAt };
  });
}

// ---------------------------------------------------------------- build and serve

/**
 * The app the run serves: a snapshot of a commit (HEAD by default, or `--source <commit>`) in a
 * temp folder, built once per commit and reused, so the numbers belong to a commit and half-edited
 * files in the working tree neither break the build nor the shared .next of the e2e suite.
 * `--source worktree` serves the working tree's own build instead.
 */
function prepareApp(env: NodeJS.ProcessEnv): string {
  if (flags.source === "worktree") {
    if (!flags["skip-build"]) buildUnderLock(root, env);
    return root;
  }
  const commit = git(root, ["rev-parse", "--verify", `${flags.source === "head" ? "HEAD" : flags.source}^{commit}`]).trim();
  const appDir = path.join(os.tmpdir(), `teammem-bench-app-${commit.slice(0, 12)}`);
  if (existsSync(path.join(appDir, ".next", "BUILD_ID"))) return appDir;
  console.log(`bench: snapshot of ${commit.slice(0, 12)} in ${appDir}`);
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(appDir, { recursive: true });
  const archive = spawnSync("sh", ["-c", 'git -C "$1" archive "$3" | tar -x -C "$2"', "sh", root, appDir, commit], { stdio: "inherit" });
  if (archive.status !== 0) throw new Error(`git archive of ${commit} failed`);
  // Hard links: the same packages without copying 700 MB; nothing writes into node_modules.
  const link = spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(appDir, "node_modules")], { stdio: "inherit" });
  if (link.status !== 0) throw new Error("could not link node_modules into the snapshot");
  const generate = spawnSync("npm", ["run", "db:generate", "--silent"], { cwd: appDir, env, stdio: "inherit" });
  if (generate.status !== 0) throw new Error("prisma generate failed in the snapshot");
  buildUnderLock(appDir, env);
  return appDir;
}

function buildUnderLock(appDir: string, env: NodeJS.ProcessEnv): void {
  console.log(`bench: building ${appDir} (next build${flags.lock === "none" ? "" : ` under ${flags.lock}`})…`);
  const next = path.join(appDir, "node_modules", ".bin", "next");
  const [command, args] = flags.lock === "none" ? [next, ["build"]] : ["flock", [flags.lock, next, "build"]];
  const result = spawnSync(command, args, { cwd: appDir, stdio: "inherit", env });
  if (result.status !== 0) throw new Error("next build failed");
}

async function startServer(appDir: string, env: NodeJS.ProcessEnv, instancePort: number, logFile: string): Promise<ChildProcess> {
  // node itself runs the server, so that --profile can ask it for CPU profiles (NODE_OPTIONS may
  // not). The server `npm start` runs (scripts/serve.ts); `next start` for commits from before it.
  const profile = flags.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(flags.profile)}`] : [];
  const serveScript = path.join(appDir, "scripts", "serve.ts");
  const args = existsSync(serveScript)
    ? [...profile, "--import", "tsx", serveScript]
    : [...profile, path.join(appDir, "node_modules", "next", "dist", "bin", "next"), "start", "-H", HOST, "-p", String(instancePort)];
  const server = spawn(process.execPath, args, { cwd: appDir, env: { ...env, HOST, PORT: String(instancePort) }, stdio: ["ignore", "pipe", "pipe"], detached: false });
  const logStream = createWriteStream(logFile);
  server.stdout!.pipe(logStream);
  server.stderr!.pipe(logStream);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}); see ${logFile}`);
    const { status } = await send("/api/health", {}, `http://${HOST}:${instancePort}`);
    if (status !== null) return server;
    await sleep(500);
  }
  throw new Error(`the server did not answer within 120 s; see ${logFile}`);
}

// ---------------------------------------------------------------- the run

async function signIn(email: string): Promise<string> {
  const response = await fetch(new URL("/api/auth/sign-in/email", base), { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (!response.ok) throw new Error(`sign-in as ${email}: ${response.status} ${await response.text()}`);
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

async function createToken(cookie: string, name: string): Promise<string> {
  const body = await sendJson<{ token: string }>("/api/tokens", { method: "POST", expect: 201, headers: { cookie, origin: base, "content-type": "application/json" }, body: JSON.stringify({ name, projectIds: [DEMO_PROJECT.id] }) });
  return body.token;
}

let proposalNumber = 0;
/**
 * Each proposal about a subject of its own, as a team's real proposals are: proposals made from
 * one template read as near-duplicates of each other, and the review refuses to commit one whose
 * look-alike landed after its checks ran (docs/review.md, "Checks") until a lead has looked.
 */
function proposalBody(): string {
  proposalNumber += 1;
  const words = [0, 1, 2].map((offset) => VOCABULARY[(proposalNumber * 11 + offset * 5) % VOCABULARY.length]).join(" ");
  const own = randomBytes(48).toString("hex").match(/.{6}/g)!.map((chunk) => chunk.replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 16))));
  const content = serializeMemory(
    { name: `Bench decision ${own[0]} ${own[1]}`, description: `${own.slice(2, 6).join(" ")} about ${words}`, type: "project" },
    `${own.slice(6, 11).join(" ")}: ${words}.\n**Why:** ${own.slice(11, 13).join(" ")}.\n**How to apply:** ${own.slice(13, 16).join(" ")}.\n`,
  );
  return JSON.stringify({ path: `project_bench_${Date.now()}_${proposalNumber}.md`, content });
}

async function measure(tokens: { member: string; lead: string }, cookie: string, storeDir: string, scratchDir: string, instances: string[]): Promise<void> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
  const recallRequest = (fields: Record<string, unknown>) => (): RequestSpec => ({ pathname: `/api/projects/${DEMO_PROJECT.id}/recall`, init: { method: "POST", headers: bearer(tokens.member), body: JSON.stringify({ query: "how do we test payments against the PayFlow sandbox", ...fields }) } });
  const recallSpec = recallRequest({});
  // What the prompt hook sends before every prompt: the answer without the manifest (~30 KB here).
  const hookRecallSpec = recallRequest({ includeManifest: false });

  console.log("bench: warming up (first requests after the project grew)…");
  record(summarize("first recall after growth (cold)", [await timed(recallSpec().pathname, recallSpec().init)], 200));
  record(summarize("first /memories after growth (cold)", [await timed(`/memories?scope=team&project=${DEMO_PROJECT.id}`, { headers: { cookie } })], 200));
  // Those two were answered from the commit the read model had (reads wait at most 2 s for a
  // catch-up): wait until it landed, then read the page once more, which starts the first
  // staleness check of every memory at the new commit, and let that finish too.
  await waitForCatchUp();
  await timed(`/memories?scope=team&project=${DEMO_PROJECT.id}`, { headers: { cookie } });
  await waitForQuietMachine();

  const health = record(summarize("GET /api/health, sequential", await sequential(20, () => timed("/api/health")), 200));
  const floor = record(summarize("GET /api/me without credentials (401), sequential", await sequential(20, () => timed("/api/me")), 401));
  const recallSequential = record(summarize("recall, sequential", await sequential(30, () => timed(recallSpec().pathname, recallSpec().init)), 200));
  ratio("recall sequential p50 / 401 floor p50", recallSequential.p50, floor.p50);
  const hookSequential = record(summarize("recall as the prompt hook asks, sequential", await sequential(30, () => timed(hookRecallSpec().pathname, hookRecallSpec().init)), 200));
  ratio("hook recall sequential p50 / 401 floor p50", hookSequential.p50, floor.p50);
  ratio("health p50 / 401 floor p50", health.p50, floor.p50);

  for (const rate of phases.has("recall") ? rates : []) {
    const floorAtRate = record(summarize(`GET /api/me (401) at ${rate}/s`, await openLoop(rate, durationSeconds, () => ({ pathname: "/api/me" })), 401));
    record(summarize(`GET /api/health at ${rate}/s`, await openLoop(rate, durationSeconds, () => ({ pathname: "/api/health" })), 200));
    const recallAtRate = record(summarize(`recall at ${rate}/s`, await openLoop(rate, durationSeconds, recallSpec), 200));
    ratio(`recall at ${rate}/s p95 / 401 floor at ${rate}/s p95`, recallAtRate.p95, floorAtRate.p95);
    await sleep(2_000);
    const hookAtRate = record(summarize(`recall as the prompt hook asks at ${rate}/s`, await openLoop(rate, durationSeconds, hookRecallSpec), 200));
    ratio(`hook recall at ${rate}/s p95 / 401 floor at ${rate}/s p95`, hookAtRate.p95, floorAtRate.p95);
    await sleep(2_000);
  }

  if (phases.has("pages")) await measurePages(cookie, floor);
  if (phases.has("approve")) await measureWrites(tokens, storeDir, scratchDir, instances);
}

async function measurePages(cookie: string, floor: Summary): Promise<void> {
  const memories = record(summarize("GET /memories (first page), sequential", await sequential(pageSamples, () => timed(`/memories?scope=team&project=${DEMO_PROJECT.id}`, { headers: { cookie } })), 200));
  ratio("/memories p50 / 401 floor p50", memories.p50, floor.p50);
  const memoryPath = `/memories/team/${DEMO_PROJECT.id}/${encodeURIComponent(benchMemory(Math.floor(memoryCount / 2)).fileName)}`;
  const memoryPage = record(summarize("memory page, sequential", await sequential(pageSamples, () => timed(memoryPath, { headers: { cookie } })), 200));
  ratio("memory page p50 / 401 floor p50", memoryPage.p50, floor.p50);
}

async function measureWrites(tokens: { member: string; lead: string }, storeDir: string, scratchDir: string, instances: string[]): Promise<void> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

  const proposalsPath = `/api/projects/${DEMO_PROJECT.id}/proposals`;
  const submit = () => timed(proposalsPath, { method: "POST", headers: bearer(tokens.member), body: proposalBody() });
  const submitted = record(summarize("submit a proposal, sequential", await sequential(approvalCount, submit), 201));

  const plumbing = record(summarize("raw git plumbing for one commit", plumbingCommitSamples(storeDir, scratchDir, 20), 200));
  ratio("submit p50 / git commit plumbing p50", submitted.p50, plumbing.p50);

  const submitIds = async (count: number) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const { proposal } = await sendJson<{ proposal: { id: string } }>(proposalsPath, { method: "POST", expect: 201, headers: bearer(tokens.member), body: proposalBody() });
      ids.push(proposal.id);
    }
    return ids;
  };
  const approve = (proposalId: string, target = base) => timed(`${proposalsPath}/${proposalId}/approve`, { method: "POST", headers: bearer(tokens.lead), body: JSON.stringify({ revision: 1 }) }, target);

  const oneAtATime = await submitIds(approvalCount);
  const approvedSequentially = record(summarize("approve, one at a time", await sequential(oneAtATime.length, (index) => approve(oneAtATime[index]!)), 200));
  ratio("approve p50 / git commit plumbing p50", approvedSequentially.p50, plumbing.p50);

  // A second instance approves nothing until here: its first approval builds its caches (the
  // duplicate finder over every memory, trees, index headers). Timed apart, so the run below
  // measures instances at work, as they are after their first approval.
  for (const [index, target] of instances.slice(1).entries()) {
    const [id] = await submitIds(1);
    record(summarize(`first approval on instance ${index + 2} (cold)`, [await approve(id!, target)], 200));
  }
  const concurrentIds = await submitIds(approvalCount * 2);
  const startedAt = performance.now();
  const queue = [...concurrentIds];
  const samples: Sample[] = [];
  // With two instances, half of the eight clients talk to each: both contend for the one store.
  await Promise.all(Array.from({ length: 8 }, async (_, client) => {
    for (let id = queue.shift(); id; id = queue.shift()) samples.push(await approve(id, instances[client % instances.length]));
  }));
  const concurrent = record(summarize(`approve, 8 in flight${instances.length > 1 ? `, ${instances.length} instances` : ""}`, samples, 200, performance.now() - startedAt));
  console.log(`  approvals per minute with 8 in flight: ${((concurrent.perSecond ?? 0) * 60).toFixed(0)}`);
}

/** Until `GET /api/health` no longer names a read-model catch-up under way (at most 5 minutes). */
async function waitForCatchUp(): Promise<void> {
  const startedAt = performance.now();
  while (performance.now() - startedAt < 300_000) {
    // A poll may meet a connection the busy server dropped: that is no answer, ask again.
    const answer = (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) }).then((response) => response.json(), () => undefined).catch(() => undefined)) as { store?: { catchingUpSince?: string | null } } | undefined;
    if (answer !== undefined && !answer.store?.catchingUpSince) break;
    await sleep(1_000);
  }
  console.log(`bench: the read model caught up with the growth ${((performance.now() - startedAt) / 1000).toFixed(0)} s after the first reads`);
}

/**
 * The first page reads start the server's first staleness check of every memory (duplicates,
 * code references), which runs in the background for a minute or more at 10,000 memories.
 * Measuring beside it measures it: wait until the machine is idle (under 15 % busy over 2 s),
 * at most 5 minutes, and say how long that took.
 */
async function waitForQuietMachine(): Promise<void> {
  const busy = () => {
    const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const numbers = fields.map(Number);
    return { idle: numbers[3]! + (numbers[4] ?? 0), total: numbers.reduce((sum, value) => sum + value, 0) };
  };
  const startedAt = performance.now();
  while (performance.now() - startedAt < 300_000) {
    const before = busy();
    await sleep(2_000);
    const after = busy();
    const busyShare = 1 - (after.idle - before.idle) / Math.max(1, after.total - before.total);
    if (busyShare < 0.15) break;
  }
  console.log(`bench: waited ${((performance.now() - startedAt) / 1000).toFixed(0)} s for the server's background work to finish`);
}

type Instance = { port: number; dataDir: string; env: NodeJS.ProcessEnv };

function instanceEnv(instancePort: number, dataDir: string, database: string | null, storeRemote: string, authSecret: string): NodeJS.ProcessEnv {
  return childProcessEnv({
    TEAMMEM_DATA_DIR: dataDir,
    DATABASE_URL: database ?? `file:${path.join(dataDir, "teammem.db")}`,
    TEAMMEM_STORE_REMOTE: storeRemote,
    TEAMMEM_AUTH_SECRET: authSecret,
    TEAMMEM_INITIAL_PASSWORD: PASSWORD,
    TEAMMEM_DEMO: "on",
    HOST,
    PORT: String(instancePort),
    TEAMMEM_PUBLIC_URL: `http://${HOST}:${instancePort}`,
    ANTHROPIC_API_KEY: "",
    ANTHROPIC_BASE_URL: "",
    TEAMMEM_LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
  });
}

/** A database of its own inside the given PostgreSQL server, dropped after the run. */
async function createBenchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { createDb } = await import("../lib/db/client");
  const name = `teammem_bench_${randomBytes(6).toString("hex")}`;
  const admin = createDb({ databaseKind: "postgresql", databaseUrl: serverUrl, sqliteFile: null, authSecret: null, dataDir: "/nonexistent" });
  await admin.$executeRawUnsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.$disconnect();
    },
  };
}

function runSetupFor(appDir: string, instance: Instance): void {
  const setup = spawnSync(path.join(appDir, "node_modules", ".bin", "tsx"), [path.join(appDir, "scripts", "start.ts"), "--setup-only"], { cwd: appDir, env: instance.env, stdio: "inherit" });
  if (setup.status !== 0) throw new Error(`setup failed for ${instance.dataDir}`);
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), "teammem-bench-"));
  const authSecret = randomBytes(36).toString("base64");
  const database = flags.postgres ? await createBenchDatabase(flags.postgres) : null;
  // Instance one keeps the bare store in its data folder; with PostgreSQL a second instance
  // shares that store (as its remote) and the database, as two servers behind one address would.
  const firstDataDir = path.join(workDir, "data");
  const storeDir = path.join(firstDataDir, "store.git");
  const instances: Instance[] = [{ port, dataDir: firstDataDir, env: instanceEnv(port, firstDataDir, database?.url ?? null, "", authSecret) }];
  if (database) {
    const secondDataDir = path.join(workDir, "data-2");
    instances.push({ port: port + 1, dataDir: secondDataDir, env: instanceEnv(port + 1, secondDataDir, database.url, storeDir, authSecret) });
  }
  const servers: ChildProcess[] = [];
  try {
    const appDir = prepareApp(instances[0]!.env);
    console.log(`bench: data folder ${firstDataDir}, database ${database ? "PostgreSQL (a fresh database)" : "SQLite"}`);
    runSetupFor(appDir, instances[0]!);

    const growStartedAt = performance.now();
    growProject(storeDir, memoryCount);
    console.log(`bench: grew the demo project by ${memoryCount} memories (${memoryCount + 1} commits) in ${((performance.now() - growStartedAt) / 1000).toFixed(1)} s`);
    for (const instance of instances.slice(1)) runSetupFor(appDir, instance);

    for (const [index, instance] of instances.entries()) servers.push(await startServer(appDir, instance.env, instance.port, path.join(workDir, `server-${index + 1}.log`)));
    const memberCookie = await signIn(DEMO_MEMBERS.omar.email);
    const leadCookie = await signIn(DEMO_MEMBERS.lena.email);
    const tokens = { member: await createToken(memberCookie, "bench member"), lead: await createToken(leadCookie, "bench lead") };
    await measure(tokens, memberCookie, storeDir, workDir, instances.map((instance) => `http://${HOST}:${instance.port}`));

    console.log("\n" + markdownReport());
    console.log(`bench: ${resentAfterIdleClose} request(s) sent again after the server closed an idle kept-alive connection under them`);
    if (flags.out) await writeFile(flags.out, JSON.stringify({ memories: memoryCount, database: database ? "postgresql" : "sqlite", durationSeconds, rates, results, ratios, resentAfterIdleClose }, null, 2));
  } finally {
    await Promise.all(servers.map(stopServer));
    await database?.drop();
    if (flags.keep) console.log(`bench: kept ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  }
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().catch((error: unknown) => {
  console.error(`bench: ${(error as Error).message}`);
  process.exit(1);
});
