import { execFile } from "node:child_process";
import { mkdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { startFakeExtractionsServer, type FakeExtractionsServer } from "../helpers/fake-extractions-server";
import { useTempDirs } from "../helpers/temp-dir";
import { TranscriptBuilder } from "../helpers/transcript-lines";

const run = promisify(execFile);
const tempDir = useTempDirs();
beforeAll(() => ensureCompiledCli(), 120_000);

// No server, no login, no model key: --dry-run must work anywhere.
const offlineEnv = (home: string): Record<string, string | undefined> => ({ PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), TEAMMEM_SERVER: "http://127.0.0.1:9", TEAMMEM_DATA_DIR: path.join(home, "data") });

describe("teammem extract --dry-run", () => {
  it("prints the --json shape from a transcript with a torn last line, secrets redacted", async () => {
    const home = await tempDir();
    const token = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
    const t = new TranscriptBuilder();
    const said = t.user(`From now on, the deploy bot reads its token from the vault, not ${token}.`);
    t.assistant([{ text: "Noted, I will always do that." }]);
    const file = path.join(home, "session.jsonl");
    await writeFile(file, t.text(true));
    const { stdout } = await run(process.execPath, [TEAMMEM_BIN, "extract", file, "--dry-run", "--json"], { env: offlineEnv(home) as NodeJS.ProcessEnv });
    expect(stdout).not.toContain(token);
    const result = JSON.parse(stdout);
    expect(Object.keys(result)).toEqual(["selector", "cursor", "candidates"]);
    expect(result.selector).toBe("rules");
    expect(result.candidates).toHaveLength(1);
    expect(Object.keys(result.candidates[0])).toEqual(["file", "type", "name", "description", "body", "scope", "evidence"]);
    expect(result.candidates[0].evidence[0]).toMatchObject({ uuid: said, role: "user" });
  });

  it("says in plain words, with no requirement id, that the main agent already saved a memory in these messages", async () => {
    const home = await tempDir();
    const t = new TranscriptBuilder();
    t.user("Remember that the PayFlow sandbox resets every Sunday.");
    const reply = t.assistant([{ tool: "Write", id: "toolu_m", input: { file_path: "/home/omar/.claude/projects/-home-omar-src-acme/memory/project_sandbox.md", content: "x" } }]);
    t.toolResult("toolu_m", reply.toolLines.toolu_m!, "File created");
    const file = path.join(home, "session.jsonl");
    await writeFile(file, t.text());
    const { stdout } = await run(process.execPath, [TEAMMEM_BIN, "extract", file, "--dry-run"], { env: offlineEnv(home) as NodeJS.ProcessEnv });
    expect(stdout).toBe("Skipped: the main agent already wrote memory/project_sandbox.md in these messages; the cursor moved past these messages.\n");
  });

  it("without --dry-run needs --project", async () => {
    const home = await tempDir();
    const file = path.join(home, "s.jsonl");
    await writeFile(file, new TranscriptBuilder().text());
    await expect(run(process.execPath, [TEAMMEM_BIN, "extract", file], { env: offlineEnv(home) as NodeJS.ProcessEnv })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--project") });
  });
});

describe("teammem dream", () => {
  let server: FakeExtractionsServer;
  beforeAll(async () => {
    server = await startFakeExtractionsServer();
  });
  afterAll(() => server.close());
  const serverEnv = (home: string): NodeJS.ProcessEnv => {
    const env: Record<string, string | undefined> = { ...offlineEnv(home), TEAMMEM_SERVER: server.url, TEAMMEM_TOKEN: `tm_${"a1".repeat(20)}` };
    return env as NodeJS.ProcessEnv;
  };

  it("groups daily log entries by topic; only a run that proposed starts the 24 h wait (C11), and later runs send the logs changed since", async () => {
    const memoryDir = await tempDir();
    await mkdir(path.join(memoryDir, "logs/2026/11"), { recursive: true });
    await writeFile(path.join(memoryDir, "logs/2026/11/2026-11-29.md"), "## Deploys\n- Friday deploys need a second reviewer\n## Tests\n- checkout tests use the PayFlow sandbox\n");
    await writeFile(path.join(memoryDir, "logs/2026/11/2026-11-30.md"), "## Deploys\n- rollbacks go through the release channel\n");
    const env = serverEnv(memoryDir);
    const dream = async (...extra: string[]) => JSON.parse((await run(process.execPath, [TEAMMEM_BIN, "dream", memoryDir, "--json", ...extra], { env })).stdout);
    const first = await dream();
    expect(first.candidates.map((candidate: { name: string }) => candidate.name)).toEqual(["Deploys", "Tests"]);
    expect(first.candidates[0].body).toContain("rollbacks go through the release channel (2026-11-30)");
    const proposed = await dream("--project", "acme-checkout");
    expect(proposed.candidates.map((candidate: { proposal: { state: string } }) => candidate.proposal.state)).toEqual(["submitted", "submitted"]);
    const lock = await stat(path.join(memoryDir, ".consolidate-lock"));
    expect(Date.now() - lock.mtimeMs).toBeLessThan(60_000);
    const second = await dream("--project", "acme-checkout");
    expect(second.candidates).toEqual([]);
    expect(second.skipped).toContain("next one may run after");
    // A day later only logs changed since the last run count.
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await utimes(path.join(memoryDir, ".consolidate-lock"), dayAgo, dayAgo);
    const old = new Date(Date.now() - 26 * 3600_000);
    await utimes(path.join(memoryDir, "logs/2026/11/2026-11-29.md"), old, old);
    await dream("--project", "acme-checkout");
    expect(server.received.at(-1)!.map((log) => log.file)).toEqual(["logs/2026/11/2026-11-30.md"]);
  });

  it("teammem extract --project --json says what became of each candidate, as the plain output does", async () => {
    const home = await tempDir();
    const t = new TranscriptBuilder();
    const team = t.user("Remember that the kappa export runs at 04:00 UTC.");
    const personal = t.user("Remember that I prefer answers without emoji.");
    const file = path.join(home, "session.jsonl");
    await writeFile(file, t.text());
    const candidate = { type: "project", description: "…", body: "…", evidence: [{ uuid: team, role: "user", excerpt: "…" }] };
    server.transcriptAnswer = {
      selector: "rules",
      cursor: personal,
      sessionId: t.sessionId,
      fallbackReason: "no model key configured",
      candidates: [
        { ...candidate, file: "project_the_kappa_export_runs_at_04_00.md", name: "The kappa export runs at 04:00 UTC.", scope: "team", proposal: { id: "proposal_kappa", state: "submitted" } },
        { ...candidate, file: "user_prefer_answers_without_emoji.md", type: "user", name: "I prefer answers without emoji.", scope: "private", proposal: { skipped: "private" } },
      ],
    };
    const extract = async (...extra: string[]) => (await run(process.execPath, [TEAMMEM_BIN, "extract", file, "--project", "acme-checkout", ...extra], { env: serverEnv(home) })).stdout;
    const answer = JSON.parse(await extract("--json"));
    expect(answer).toMatchObject({ sessionId: t.sessionId, fallbackReason: "no model key configured" });
    expect(answer.candidates.map((item: { proposal: unknown }) => item.proposal)).toEqual([{ id: "proposal_kappa", state: "submitted" }, { skipped: "private" }]);
    await rm(path.join(home, ".config"), { recursive: true, force: true }); // the CLI's cursor: send the session again
    expect(await extract()).toContain("→ proposal proposal_kappa (submitted)");
  });

  it("a listing, or a server without a model, proposes nothing and leaves the logs due for the next run", async () => {
    const memoryDir = await tempDir();
    await mkdir(path.join(memoryDir, "logs/2026/12"), { recursive: true });
    await writeFile(path.join(memoryDir, "logs/2026/12/2026-12-01.md"), "## PayFlow sandbox\n- The sandbox resets every Sunday at 03:00 UTC.\n");
    const env = serverEnv(memoryDir);
    const lock = path.join(memoryDir, ".consolidate-lock");
    const dream = async (...extra: string[]) => await run(process.execPath, [TEAMMEM_BIN, "dream", memoryDir, ...extra], { env });

    const listing = await dream();
    expect(listing.stdout).toBe("project_payflow_sandbox.md  [project, team]  PayFlow sandbox (listed)\n");
    expect(listing.stderr).toContain("nothing was proposed");
    await expect(stat(lock)).rejects.toMatchObject({ code: "ENOENT" });

    server.setHasModel(false);
    try {
      const noModel = JSON.parse((await dream("--project", "acme-checkout", "--json")).stdout);
      expect(noModel.candidates.map((candidate: { proposal: unknown }) => candidate.proposal)).toEqual([{ skipped: "no-model" }]);
      await expect(stat(lock)).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      server.setHasModel(true);
    }

    const sent = server.received.length;
    const proposed = JSON.parse((await dream("--project", "acme-checkout", "--force", "--json")).stdout);
    expect(proposed.candidates).toHaveLength(1);
    expect(server.received.slice(sent).map((logs) => logs.map((log) => log.file))).toEqual([["logs/2026/12/2026-12-01.md"]]);
    expect(Date.now() - (await stat(lock)).mtimeMs).toBeLessThan(60_000);
  });

  it("lists a log written as ## headings with prose; a run that finds nothing says why and takes no 24 h wait", async () => {
    const memoryDir = await tempDir();
    await mkdir(path.join(memoryDir, "logs/2026/12"), { recursive: true });
    const env = offlineEnv(memoryDir) as NodeJS.ProcessEnv;
    const dream = async (...extra: string[]) => (await run(process.execPath, [TEAMMEM_BIN, "dream", memoryDir, ...extra], { env })).stdout;
    const lock = path.join(memoryDir, ".consolidate-lock");

    await writeFile(path.join(memoryDir, "logs/2026/12/2026-12-01.md"), "# Monday\n\n## Later\n");
    const empty = JSON.parse(await dream("--json"));
    expect(empty).toMatchObject({ candidates: [], emptyReason: expect.stringContaining("1 daily log read, but no entry") });
    await expect(stat(lock)).rejects.toMatchObject({ code: "ENOENT" });

    await writeFile(path.join(memoryDir, "logs/2026/12/2026-12-02.md"), "## Kafka retention\nWe learned retention is 7 days on the events cluster.\n\n## Flaky checkout test\nThe checkout e2e test flakes on CI when run in parallel.\n");
    expect(await dream()).toBe("project_kafka_retention.md  [project, team]  Kafka retention (listed)\nproject_flaky_checkout_test.md  [project, team]  Flaky checkout test (listed)\n");

    // A day after a consolidation, with no log changed since, the run says so and leaves the lock's time alone.
    await writeFile(lock, "");
    const dayAgo = new Date(Math.floor(Date.now() / 1000 - 25 * 3600) * 1000); // whole seconds: mtimes round
    await utimes(lock, dayAgo, dayAgo);
    for (const name of ["2026-12-01.md", "2026-12-02.md"]) await utimes(path.join(memoryDir, "logs/2026/12", name), dayAgo, dayAgo);
    expect(await dream()).toBe(`No daily log changed since the last consolidation (${dayAgo.toISOString()}). The .consolidate-lock is left as it was: the next run need not wait.\n`);
    expect((await stat(lock)).mtimeMs).toBe(dayAgo.getTime());
  });
});
