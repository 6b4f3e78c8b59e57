import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { setUpDemoWithToken } from "../helpers/demo-token";

/**
 * `teammem recall-hook` as Claude Code runs it: the compiled CLI, the hook JSON on stdin, a member
 * home laid out as Claude Code lays it out, a real git checkout whose origin is the demo project's
 * repository, and the product's own route handlers (GET /api/projects, POST …/recall) behind a
 * plain HTTP listener that records what it received.
 */
const PROJECT = "acme-checkout";
const SECRET = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join(""); // built at run time: no literal credential in the repository
const DB_PROMPT = "should the integration tests use a real database or mocks";

let worldDir = "";
let server: Server;
let serverUrl = "";
let token = "";
let closeDb: () => Promise<void>;
let received: { method: string; path: string; body: string }[] = [];
let answers: { path: string; text: string }[] = [];
let mode: "answer" | "hang" = "answer";
let memberHome = "";
let checkout = "";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function buildWorld() {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-recall-hook-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "recall-hook-password-1";
  delete process.env.ANTHROPIC_API_KEY; // the local ranker: deterministic, no model
  token = await setUpDemoWithToken("omar@acme.example", { name: "hooks", projectIds: [PROJECT] });
  const { getDatabase } = await import("@/app/_server/context");
  closeDb = () => getDatabase().$disconnect();

  const projects = (await import("@/app/api/projects/route")).GET as unknown as Handler;
  const recall = (await import("@/app/api/projects/[id]/recall/route")).POST as unknown as Handler;
  server = createServer((incoming, outgoing) => {
    let body = "";
    incoming.on("data", (chunk) => (body += String(chunk)));
    incoming.on("end", () => {
      received.push({ method: incoming.method ?? "", path: incoming.url ?? "", body });
      if (mode === "hang") return; // never answers: the hook must give up on its own
      const recallMatch = /^\/api\/projects\/([^/]+)\/recall$/.exec(incoming.url ?? "");
      const handler = incoming.url?.startsWith("/api/projects?") || incoming.url === "/api/projects" ? projects : recallMatch ? recall : null;
      if (!handler) return void outgoing.writeHead(404).end();
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      const request = new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method, headers, body: incoming.method === "POST" ? body : undefined });
      void handler(request, { params: Promise.resolve<Record<string, string>>(recallMatch ? { id: decodeURIComponent(recallMatch[1]!) } : {}) }).then(async (response) => {
        outgoing.writeHead(response.status, { "content-type": "application/json" });
        const text = await response.text();
        answers.push({ path: incoming.url ?? "", text });
        outgoing.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  memberHome = path.join(worldDir, "home");
  checkout = path.join(memberHome, "src", "checkout");
  await mkdir(checkout, { recursive: true });
  execFileSync("git", ["init", "-q", checkout]);
  execFileSync("git", ["-C", checkout, "remote", "add", "origin", "git@github.com:acme/checkout.git"]);
}

type HookRun = { code: number | null; stdout: string; stderr: string; ms: number };

/**
 * The behaviour tests give the hook a budget a loaded test machine cannot exhaust; the budget
 * itself is what the hanging-server test checks, with the default.
 */
const AMPLE_BUDGET = ["--budget-ms", "20000"];

function runHook(input: Record<string, unknown>, env: Record<string, string> = {}, args: string[] = AMPLE_BUDGET): Promise<HookRun> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [TEAMMEM_BIN, "recall-hook", "--explain", ...args], {
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "",
        HOME: memberHome,
        CLAUDE_CONFIG_DIR: path.join(memberHome, ".claude"),
        XDG_CONFIG_HOME: path.join(memberHome, ".config"),
        TEAMMEM_TOKEN: token,
        TEAMMEM_SERVER: serverUrl,
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    // A hook that stops reading (an input over 1 MB) closes the pipe under the rest: not a failure here.
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ hook_event_name: "UserPromptSubmit", transcript_path: "/nowhere.jsonl", permission_mode: "default", cwd: checkout, ...input }));
  });
}

function contextOf(run: HookRun): string {
  return JSON.parse(run.stdout).hookSpecificOutput.additionalContext as string;
}

const recallBodies = () => received.filter((request) => request.path.endsWith("/recall")).map((request) => JSON.parse(request.body) as { query: string; alreadySurfaced: string[]; heldCommit?: string });

beforeAll(async () => {
  ensureCompiledCli();
  await buildWorld();
}, 120_000);
afterAll(async () => {
  server?.close();
  await closeDb?.();
  await rm(worldDir, { recursive: true, force: true });
});
beforeEach(() => {
  received = [];
  answers = [];
  mode = "answer";
});

describe("teammem recall-hook (Claude Code's UserPromptSubmit hook)", () => {

  it("gives the selected team memories as additionalContext, in the R7 format, and the lead's recall log shows them", async () => {
    const run = await runHook({ session_id: "session-a", prompt: DB_PROMPT });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^teammem recall-hook: recalled after \d+ ms: .*feedback_real_db_in_tests\.md/);
    const parsed = JSON.parse(run.stdout);
    expect(parsed.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    const context = contextOf(run);
    expect(context).toMatch(/^<system-reminder>\n/);
    expect(context).toContain("memory/team/feedback_real_db_in_tests.md");
    expect(context).toContain("This memory is"); // A3: an old memory carries its freshness warning
    expect(context.length).toBeLessThan(9_500);

    const { getDatabase } = await import("@/app/_server/context");
    const events = await getDatabase().recallEvent.findMany({ where: { projectId: PROJECT }, orderBy: { at: "desc" }, take: 1 });
    expect(JSON.parse(events[0]!.selected)).toContain("feedback_real_db_in_tests.md");
    // The hook asks for the injections only: the answer it got carries no manifest.
    expect((recallBodies()[0] as { includeManifest?: boolean }).includeManifest).toBe(false);
    const answer = JSON.parse(answers.filter((entry) => entry.path.endsWith("/recall")).at(-1)!.text) as Record<string, unknown>;
    expect(answer.selected).toEqual(expect.arrayContaining([expect.objectContaining({ file: "feedback_real_db_in_tests.md" })]));
    expect("manifest" in answer).toBe(false);
  });

  it("never gives a session the same memory twice, and tells the server what it already gave", async () => {
    const first = await runHook({ session_id: "session-b", prompt: DB_PROMPT });
    const firstGiven = first.stderr.replace(/^.*recalled after \d+ ms: /, "").trim().split(", ");
    expect(firstGiven).toContain("feedback_real_db_in_tests.md");
    const second = await runHook({ session_id: "session-b", prompt: DB_PROMPT });
    expect(second.code).toBe(0);
    expect(second.stdout.includes("feedback_real_db_in_tests.md")).toBe(false);
    expect(recallBodies()[1]!.alreadySurfaced).toEqual(firstGiven);
    // The model's share of the hook's budget travels with each request (here the ample test budget, capped).
    expect((recallBodies()[1] as { modelTimeoutMs?: number }).modelTimeoutMs).toBeGreaterThanOrEqual(50);
    // Another session starts afresh.
    const other = await runHook({ session_id: "session-c", prompt: DB_PROMPT });
    expect(contextOf(other)).toContain("feedback_real_db_in_tests.md");
    // The state lives beside the memory directory, not in it.
    const stateFile = path.join(memberHome, ".claude", "projects", checkout.replace(/[^A-Za-z0-9]/g, "-"), "memory.teammem-recall-hook.json");
    const state = JSON.parse(await readFile(stateFile, "utf8"));
    expect(Object.keys(state.sessions).sort()).toEqual(["session-a", "session-b", "session-c"]);
    expect(Object.values(state.projects)).toEqual([expect.objectContaining({ projectId: PROJECT })]);
  });

  it("asks the server for the project list once, then remembers the checkout's project", async () => {
    await runHook({ session_id: "session-d", prompt: DB_PROMPT });
    expect(received.filter((request) => request.path.startsWith("/api/projects?") || request.path === "/api/projects")).toHaveLength(0);
  });

  it("sends nothing for one-word prompts and slash commands", async () => {
    for (const prompt of ["continue", "/clear", "/review 12 now"]) {
      const run = await runHook({ session_id: "session-e", prompt });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("");
    }
    expect(received).toEqual([]);
  });

  it("a hook input over 1 MB (a pasted log) is skipped at once, asking nothing", async () => {
    const run = await runHook({ session_id: "session-huge", prompt: `why does this fail?\n${"x".repeat(2 * 1024 * 1024)}` });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^teammem recall-hook: input-over-1-MB after \d+ ms/);
    expect(received).toEqual([]);
  });

  it("redacts a credential in the prompt before it leaves the machine", async () => {
    const run = await runHook({ session_id: "session-f", prompt: `the integration tests database login fails with token ${SECRET} today` });
    expect(run.code).toBe(0);
    expect(received.length).toBeGreaterThan(0);
    for (const request of received) expect(request.body).not.toContain(SECRET.slice(4));
    expect(recallBodies()[0]!.query).toMatch(/\[REDACTED:[a-z-]+\]/);
    expect(run.stdout).not.toContain(SECRET.slice(4));
  });

  it("a prompt longer than the server takes still gets its memories: the hook sends its beginning", async () => {
    const pasted = Array.from({ length: 120 }, (_, line) => `    at handler (src/payments/ledger.ts:${line + 10}:7) 😀`).join("\n");
    const run = await runHook({ session_id: "session-long", prompt: `${DB_PROMPT}\n\nHere is the whole log:\n${pasted}` });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^teammem recall-hook: recalled after \d+ ms: /); // before: "failed: INVALID_INPUT", and no memories
    expect(contextOf(run)).toMatch(/memory\/team\/[a-z_]+\.md/);
    const query = recallBodies().at(-1)!.query as string;
    expect(query.startsWith(DB_PROMPT)).toBe(true);
    expect(query.length).toBeLessThanOrEqual(4000);
    expect(query.isWellFormed()).toBe(true); // never cut inside a surrogate pair
  });

  it("fails open: a server that never answers yields no output and exit 0 within the budget", async () => {
    mode = "hang";
    const run = await runHook({ session_id: "session-g", prompt: DB_PROMPT }, {}, []);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("out of time");
    expect(received).toHaveLength(1); // it did ask
    // Functional bound, not a benchmark: Claude Code's own timeout for this hook is 3 s.
    expect(run.ms).toBeLessThan(3_000);
  });

  it("fails open without a server, a login or a project", async () => {
    const closed = await runHook({ session_id: "session-h", prompt: DB_PROMPT }, { TEAMMEM_SERVER: "http://127.0.0.1:9" });
    expect([closed.code, closed.stdout]).toEqual([0, ""]);
    const noLogin = await runHook({ session_id: "session-h", prompt: DB_PROMPT }, { TEAMMEM_TOKEN: "", TEAMMEM_SERVER: "" });
    expect([noLogin.code, noLogin.stdout, noLogin.stderr.replace(/ after \d+ ms/, "").trim()]).toEqual([0, "", "teammem recall-hook: not-logged-in"]);
    const elsewhere = await mkdtemp(path.join(worldDir, "other-"));
    execFileSync("git", ["init", "-q", elsewhere]);
    execFileSync("git", ["-C", elsewhere, "remote", "add", "origin", "https://github.com/acme/unknown.git"]);
    const noProject = await runHook({ session_id: "session-h", prompt: DB_PROMPT, cwd: elsewhere });
    expect([noProject.code, noProject.stdout, noProject.stderr.replace(/ after \d+ ms/, "").trim()]).toEqual([0, "", "teammem recall-hook: no-project"]);
    const badInput = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [TEAMMEM_BIN, "recall-hook"], { env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", HOME: memberHome } });
      child.on("close", resolve);
      child.stdin.end("not json");
    });
    expect(badInput).toBe(0);
  });
});

describe("recall with heldCommit (team memories the member already synced are Claude Code's to recall)", () => {
  it("leaves out what the member holds unchanged and offers only what changed since", async () => {
    const { getConfig, getDatabase } = await import("@/app/_server/context");
    const { ensureReadModel } = await import("@/lib/read-model/ensure-read-model");
    const { submitProposal } = await import("@/lib/review/submit-proposal");
    const { approveProposal } = await import("@/lib/review/approve-proposal");
    const config = getConfig();
    const db = getDatabase();
    const recall = (await import("@/app/api/projects/[id]/recall/route")).POST as unknown as Handler;
    const ask = async (body: Record<string, unknown>) => {
      const response = await recall(
        new Request(`http://127.0.0.1/api/projects/${PROJECT}/recall`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) }),
        { params: Promise.resolve({ id: PROJECT }) },
      );
      return { status: response.status, json: (await response.json()) as { selected: { file: string }[]; error?: { message: string } } };
    };
    const held = (await ensureReadModel(config, db)).commit!;
    const query = "integration tests real database mocks";
    expect((await ask({ query })).json.selected.map((memory) => memory.file)).toContain("feedback_real_db_in_tests.md");
    expect((await ask({ query, heldCommit: held })).json.selected).toEqual([]);

    const lena = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
    const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
    const content = "---\nname: Integration tests reset the database per test\ndescription: integration tests truncate the real database between tests instead of mocks\ntype: project\n---\nEach integration test starts from an empty real database.\n";
    const proposal = await submitProposal(config, db, { projectId: PROJECT, path: "project_db_reset_per_test.md", content, source: "member", proposerId: omar.id });
    await approveProposal(config, db, { proposalId: proposal.id, approverId: lena.id, revision: 1 });
    expect((await ask({ query, heldCommit: held })).json.selected.map((memory) => memory.file)).toEqual(["project_db_reset_per_test.md"]);

    // A commit the store does not know: nothing is vouched for, everything is a candidate.
    expect((await ask({ query, heldCommit: "0".repeat(40) })).json.selected.map((memory) => memory.file)).toContain("feedback_real_db_in_tests.md");
    const bad = await ask({ query, heldCommit: "HEAD~1" });
    expect(bad.status).toBe(400);
    expect(bad.json.error?.message).toContain("heldCommit");
  });
});

describe("recall-hook beside teammem sync", () => {
  it("uses the project and the commit sync recorded, so memories already in memory/team/ are not given again", async () => {
    const { getConfig, getDatabase } = await import("@/app/_server/context");
    const { ensureReadModel } = await import("@/lib/read-model/ensure-read-model");
    const { emptySyncState, saveSyncState } = await import("@/lib/sync/sync-state");
    const head = (await ensureReadModel(getConfig(), getDatabase())).commit!;
    const memoryDir = path.join(memberHome, ".claude", "projects", checkout.replace(/[^A-Za-z0-9]/g, "-"), "memory");
    await saveSyncState(memoryDir, { ...emptySyncState(serverUrl, PROJECT), syncedCommit: head, syncedAt: new Date().toISOString() });

    const run = await runHook({ session_id: "session-synced", prompt: DB_PROMPT });
    expect([run.code, run.stdout, run.stderr.replace(/ after \d+ ms/, "").trim()]).toEqual([0, "", "teammem recall-hook: nothing-selected"]);
    expect(received.map((request) => request.method + " " + request.path)).toEqual([`POST /api/projects/${PROJECT}/recall`]);
    expect(recallBodies()[0]!.heldCommit).toBe(head);
  });
});

describe("recall within the hook's budget", () => {
  it("a model slower than modelTimeoutMs gives way to the local ranker, so an answer still comes in time", async () => {
    const { startMessagesApiStub } = await import("../helpers/messages-api-stub");
    const { getConfig, getDatabase } = await import("@/app/_server/context");
    const { recallProjectMemories } = await import("@/lib/recall/recall-project-memories");
    const stub = await startMessagesApiStub({ kind: "hang" });
    try {
      const db = getDatabase();
      const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
      const caller = { userId: omar.id, email: omar.email, name: omar.name, isAdmin: false, via: "token" as const, tokenProjectIds: [PROJECT] };
      const config = { ...getConfig(), anthropicApiKey: "test-key-not-real", anthropicBaseUrl: stub.baseUrl };
      const result = await recallProjectMemories(config, db, caller, { projectId: PROJECT, query: "integration tests real database mocks", modelTimeoutMs: 200 });
      expect(result.selector).toBe("local");
      expect(result.fallbackReason).toMatch(/^timeout/);
      expect(result.selected.map((memory) => memory.file)).toContain("feedback_real_db_in_tests.md");
    } finally {
      await stub.close();
    }
  });
});
