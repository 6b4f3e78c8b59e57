import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { runProjectExtraction } from "@/lib/extraction/run-project-extraction";
import { readSessionCursor } from "@/lib/extraction/session-cursor";
import { runSetup } from "@/lib/setup/run-setup";
import { startMessagesApiStub, type MessagesApiStub } from "../helpers/messages-api-stub";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";
import { TranscriptBuilder } from "../helpers/transcript-lines";

/**
 * The run rules of server-side extraction: X2 (a range in which the main agent saved a memory
 * itself is skipped, the cursor moves on) and X4 (one run per session at a time, guarded by a
 * lease taken with a conditional update), on SQLite and PostgreSQL.
 */
const PROJECT = "acme-checkout";
const MEMORY_DIR = "/home/omar/.claude/projects/-home-omar-src-acme-checkout/memory";
const kinds = [{ kind: "sqlite" as const, enabled: true }, { kind: "postgresql" as const, enabled: TEST_POSTGRES_URL !== null }];
const stubs: MessagesApiStub[] = [];
afterEach(async () => Promise.all(stubs.splice(0).map((stub) => stub.close())));

describe.each(kinds)("extraction run rules on $kind", ({ kind, enabled }) => {
  let root = "";
  let config: Config;
  let db: Db;
  let omar = "";
  let dropDatabase: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    if (!enabled) return;
    root = await mkdtemp(path.join(os.tmpdir(), `teammem-extraction-rules-${kind}-`));
    const database = kind === "postgresql" ? await createTestDatabase() : null;
    dropDatabase = database?.drop ?? null;
    config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password", ...(database ? { DATABASE_URL: database.url } : {}) }, root);
    await runSetup(config);
    db = createDb(config);
    omar = (await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } })).id;
  }, 120_000);

  afterAll(async () => {
    if (!enabled) return;
    await db?.$disconnect();
    await dropDatabase?.();
    await rm(root, { recursive: true, force: true });
  });

  const extract = (t: TranscriptBuilder, options: { config?: Config } = {}) => runProjectExtraction(options.config ?? config, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: false });
  const proposalCount = () => db.proposal.count({ where: { projectId: PROJECT, source: "extraction" } });

  it.runIf(enabled)("X2: skips a range in which the main agent wrote a memory itself, moves the cursor, and extracts the next range", async () => {
    const t = new TranscriptBuilder();
    t.user("From now on, integration tests in this repo hit a real PostgreSQL, never mocks.");
    const reply = t.assistant([{ text: "Saving that as a memory." }, { tool: "Write", id: "toolu_m", input: { file_path: `${MEMORY_DIR}/feedback_real_db.md`, content: "---\nname: Real DB\n---\n" } }]);
    t.toolResult("toolu_m", reply.toolLines.toolu_m!, "File created");
    const before = await proposalCount();
    const skipped = await extract(t);
    expect(skipped).toMatchObject({ candidates: [], skipped: expect.stringContaining("memory/feedback_real_db.md") });
    // Requirement ids are for the code, not for people reading the answer.
    expect(skipped.skipped).not.toMatch(/\b[A-Z]\d+\b/);
    expect(skipped.skipped).not.toContain("/home/omar");
    expect(skipped.cursor).not.toBeNull();
    expect(await proposalCount()).toBe(before);

    t.user("Always run the migration check before a release.");
    const next = await extract(t);
    expect(next.skipped).toBeUndefined();
    expect(next.candidates.map((candidate) => candidate.name)).toEqual(["Always run the migration check before a release."]);
  });

  it.runIf(enabled)("X2 counts only the main agent's own memory writes: not a sub-agent's, not a file outside the memory directory", async () => {
    const t = new TranscriptBuilder();
    t.user("Always tag releases with the ticket number in our repo.");
    const code = t.assistant([{ tool: "Write", id: "toolu_c", input: { file_path: "/home/omar/src/acme-checkout/docs/memory.md", content: "notes" } }]);
    t.toolResult("toolu_c", code.toolLines.toolu_c!, "File created");
    const sub = t.assistant([{ tool: "Write", id: "toolu_s", input: { file_path: `${MEMORY_DIR}/project_sub.md`, content: "x" } }], { isSidechain: true });
    t.toolResult("toolu_s", sub.toolLines.toolu_s!, "File created");
    const result = await extract(t);
    expect(result.skipped).toBeUndefined();
    expect(result.candidates.map((candidate) => candidate.name)).toEqual(["Always tag releases with the ticket number in our repo."]);
  });

  it.runIf(enabled)("X4: a second run on the same session while one runs is refused; afterwards it starts after the first run's cursor", async () => {
    const api = await startMessagesApiStub({ kind: "hang" });
    stubs.push(api);
    // The model hangs until its timeout, then the rules run: the first run holds the lease that long.
    const slow = { ...config, anthropicApiKey: "sk-ant-test", anthropicBaseUrl: api.baseUrl, extractionTimeoutMs: 1_500 };
    const t = new TranscriptBuilder();
    t.user("Never deploy the checkout service on Fridays, we agreed as a team.");
    const first = extract(t, { config: slow });
    while (api.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(extract(t)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("already running") });
    const done = await first;
    expect(done.candidates).toHaveLength(1);
    const row = await db.extractionSession.findUniqueOrThrow({ where: { projectId_sessionId: { projectId: PROJECT, sessionId: t.sessionId } } });
    expect(row).toMatchObject({ leaseId: null, leaseUntil: null });
    expect(readSessionCursor(row.cursor)?.uuid).toBe(done.cursor);
    // The request that was turned away, sent again: nothing runs twice.
    expect((await extract(t)).candidates).toEqual([]);
  }, 30_000);

  it.runIf(enabled)("X4: a lease left by a run that died is taken over once it has expired, and a run that fails lets go of it", async () => {
    const t = new TranscriptBuilder();
    t.user("Always pin the PayFlow SDK version in our repo.");
    const key = { projectId_sessionId: { projectId: PROJECT, sessionId: t.sessionId } };
    await db.extractionSession.create({ data: { projectId: PROJECT, sessionId: t.sessionId, userId: omar, leaseId: "dead-run", leaseUntil: new Date(Date.now() + 60_000) } });
    await expect(extract(t)).rejects.toMatchObject({ code: "CONFLICT" });
    await db.extractionSession.update({ where: key, data: { leaseUntil: new Date(Date.now() - 1_000) } });
    expect((await extract(t)).candidates).toHaveLength(1);

    // A run that fails after taking the lease (here: the project's memories cannot be loaded) lets go of it.
    const broken = new TranscriptBuilder();
    broken.user("Always review migrations in pairs in this repo.");
    const failing = { projectId: "no-such-project", userId: omar, transcript: broken.text(), shareExcerpt: false };
    await expect(runProjectExtraction(config, db, failing)).rejects.toBeTruthy();
    expect(await db.extractionSession.findUniqueOrThrow({ where: { projectId_sessionId: { projectId: "no-such-project", sessionId: broken.sessionId } } })).toMatchObject({ cursor: null, leaseId: null, leaseUntil: null });
  });
});
