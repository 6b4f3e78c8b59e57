import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import type { DailyLog } from "@/lib/extraction/distil-daily-logs";
import { runProjectDream } from "@/lib/extraction/run-project-dream";
import { getProposal } from "@/lib/review/get-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { startFakeExtractionsServer } from "../helpers/fake-extractions-server";
import { startMessagesApiStub, type MessagesApiStub } from "../helpers/messages-api-stub";

/**
 * Dream (T4, C11): a model distils daily logs into topic memories proposed with source
 * `extraction`, through the real SDK against a local Messages API; without a model the topics are
 * only listed; the CLI waits 24 h and five new sessions between runs.
 */
const run = promisify(execFile);
const PROJECT = "acme-checkout";
// Built at run time so no literal credential sits in the repository.
const SECRET = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
let root: string;
let config: Config;
let db: Db;
let omar = "";
const stubs: MessagesApiStub[] = [];

beforeAll(async () => {
  ensureCompiledCli();
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-dream-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  omar = (await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } })).id;
}, 120_000);

afterEach(async () => Promise.all(stubs.splice(0).map((stub) => stub.close())));
afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

const logs: DailyLog[] = [
  { file: "logs/2026/11/2026-11-29.md", date: "2026-11-29", text: `## Deploys\n- Friday deploys need a second reviewer\n- the deploy bot token is ${SECRET}\n` },
  { file: "logs/2026/11/2026-11-30.md", date: "2026-11-30", text: "## Deploys\n- rollbacks go through the #release channel\n" },
];

async function withModel(...replies: Parameters<typeof startMessagesApiStub>): Promise<{ api: MessagesApiStub; config: Config }> {
  const api = await startMessagesApiStub(...replies);
  stubs.push(api);
  return { api, config: { ...config, anthropicApiKey: "sk-ant-test", anthropicBaseUrl: api.baseUrl, extractionTimeoutMs: 5_000 } };
}

describe("dream on the server (T4)", () => {
  it("the model reads, then proposes a topic memory with source extraction citing its logs; no secret reaches the model", async () => {
    const { api, config: withKey } = await withModel(
      { kind: "tool_use", calls: [{ name: "list_memories", input: {} }] },
      { kind: "tool_use", calls: [{ name: "propose_memory", input: { file: "project_deploy_rules.md", type: "project", name: "Deploy rules", description: "Friday deploys need a second reviewer; rollbacks go through #release", body: "Friday deploys need a second reviewer (since 2026-11-29). Rollbacks go through #release.\n**Why:** from the daily logs.\n**How to apply:** every deploy.", scope: "team", evidence: ["logs/2026/11/2026-11-30.md", "logs/2026/11/2026-11-29.md", "not-a-log"] } }] },
      { kind: "text", text: "Done." },
    );
    const result = await runProjectDream(withKey, db, { projectId: PROJECT, userId: omar, logs });
    expect(result.selector).toBe("model");
    expect(result.candidates).toHaveLength(1);
    const proposal = await getProposal(withKey, db, (result.candidates[0]!.proposal as { id: string }).id);
    expect(proposal).toMatchObject({ source: "extraction", path: "project_deploy_rules.md" });
    expect(proposal.provenance).toMatchObject({ kind: "dream", selector: "model", logs: logs.map((log) => log.file) });
    expect(proposal.provenance.evidence).toEqual([
      { uuid: "logs/2026/11/2026-11-30.md", role: "daily-log", excerpt: expect.stringContaining("rollbacks") },
      { uuid: "logs/2026/11/2026-11-29.md", role: "daily-log", excerpt: expect.stringContaining("[REDACTED:") },
    ]);

    expect(api.requests).toHaveLength(3); // read turn, write turn, the closing answer
    const first = JSON.stringify(api.requests[0]!.body);
    expect(first).toContain("Friday deploys need a second reviewer");
    expect(first).toContain("feedback_real_db_in_tests.md"); // the manifest: update instead of duplicate
    for (const request of api.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
    expect(JSON.stringify(proposal)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET); // what the route answers
  });

  it("a topic the model rests on no daily log that was sent is not proposed, and the answer says why", async () => {
    const before = await db.proposal.count({ where: { projectId: PROJECT } });
    const topic = { file: "project_wallet_launch.md", type: "project", name: "Wallet launch", description: "The Wallet launch moved to 2027-05-01", body: "The Wallet launch moved to 2027-05-01.", scope: "team" };
    const { config: withKey } = await withModel({ kind: "tool_use", calls: [{ name: "propose_memory", input: { ...topic, evidence: ["../../etc/passwd"] } }] }, { kind: "text", text: "Done." });
    const result = await runProjectDream(withKey, db, { projectId: PROJECT, userId: omar, logs });
    expect(result.candidates.map((candidate) => candidate.proposal)).toEqual([{ error: "Not proposed: its evidence names none of the daily logs sent." }]);
    expect(await db.proposal.count({ where: { projectId: PROJECT } })).toBe(before);
  });

  it("without a model key, or when the model fails, the topics are listed and nothing is proposed", async () => {
    const before = await db.proposal.count({ where: { projectId: PROJECT } });
    const noKey = await runProjectDream({ ...config, anthropicApiKey: null }, db, { projectId: PROJECT, userId: omar, logs });
    expect(noKey).toMatchObject({ selector: "rules", fallbackReason: expect.stringContaining("no model key") });
    expect(noKey.candidates.map((candidate) => [candidate.name, candidate.proposal])).toEqual([["Deploys", { skipped: "no-model" }]]);
    expect(JSON.stringify(noKey)).not.toContain(SECRET);

    const { config: failing } = await withModel({ kind: "status", status: 500 });
    const failed = await runProjectDream({ ...failing, extractionTimeoutMs: 2_000 }, db, { projectId: PROJECT, userId: omar, logs });
    expect(failed.selector).toBe("rules");
    expect(failed.candidates.every((candidate) => "skipped" in candidate.proposal)).toBe(true);
    expect(await db.proposal.count({ where: { projectId: PROJECT } })).toBe(before);
  }, 30_000);
});

describe("teammem dream gate (C11)", () => {
  it("waits for five sessions even before the first run, then 24 h and five new ones in Claude Code's project folder; --force skips the wait", async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), "teammem-dream-home-"));
    const projectFolder = path.join(home, ".claude", "projects", "-home-omar-src-checkout");
    const memoryDir = path.join(projectFolder, "memory");
    await mkdir(path.join(memoryDir, "logs/2026/11"), { recursive: true });
    await writeFile(path.join(memoryDir, "logs/2026/11/2026-11-30.md"), "## Deploys\n- rollbacks go through the release channel\n");
    // Only a run that proposed starts the wait: the project's server (a stand-in with a model) proposes.
    const server = await startFakeExtractionsServer();
    const vars: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), TEAMMEM_SERVER: server.url, TEAMMEM_TOKEN: `tm_${"a1".repeat(20)}`, TEAMMEM_DATA_DIR: path.join(home, "data") };
    const env = vars as NodeJS.ProcessEnv;
    const dream = async (...extra: string[]) => JSON.parse((await run(process.execPath, [TEAMMEM_BIN, "dream", memoryDir, "--json", "--project", PROJECT, ...extra], { env })).stdout) as { candidates: { name: string }[]; skipped?: string; selector?: string };
    const lock = path.join(memoryDir, ".consolidate-lock");
    const addSessions = async (...names: string[]) => Promise.all(names.map((name) => writeFile(path.join(projectFolder, `${name}.jsonl`), "{}\n")));

    // No run yet: every transcript is a new session, and there are none.
    expect(await dream()).toMatchObject({ candidates: [], skipped: expect.stringContaining("0 of 5 new sessions") });
    await expect(stat(lock)).rejects.toMatchObject({ code: "ENOENT" });
    await addSessions("a", "b", "c", "d");
    expect((await dream()).skipped).toContain("4 of 5 new sessions");
    await addSessions("e");
    expect(await dream()).toMatchObject({ selector: "model", candidates: [{ name: "Topic 0" }] });
    expect((await dream()).skipped).toContain("the next one may run after");

    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await utimes(lock, dayAgo, dayAgo);
    const before = new Date(dayAgo.getTime() - 3600_000);
    for (const name of ["a", "b", "c", "d", "e"]) await utimes(path.join(projectFolder, `${name}.jsonl`), before, before);
    await addSessions("f", "g");
    expect((await dream()).skipped).toContain("2 of 5 new sessions");

    await addSessions("h", "i", "j");
    await writeFile(path.join(memoryDir, "logs/2026/11/2026-11-30.md"), "## Deploys\n- rollbacks go through the release channel\n- and are announced\n");
    expect(await dream()).toMatchObject({ candidates: [{ name: "Topic 0" }] });
    expect((await dream("--force")).skipped).toBeUndefined();
    await server.close();
    await rm(home, { recursive: true, force: true });
  }, 60_000);
});
