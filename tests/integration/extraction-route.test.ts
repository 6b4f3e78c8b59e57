import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { getExtractionSession } from "@/lib/extraction/get-extraction-session";
import { runProjectExtraction } from "@/lib/extraction/run-project-extraction";
import { getProposal } from "@/lib/review/get-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { startMessagesApiStub } from "../helpers/messages-api-stub";
import { TranscriptBuilder } from "../helpers/transcript-lines";

let root: string;
let config: Config;
let db: Db;
let omar = "";
let priya = "";
const PROJECT = "acme-checkout";

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-extraction-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  omar = (await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } })).id;
  priya = (await db.user.findUniqueOrThrow({ where: { email: "priya@acme.example" } })).id;
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("server-side extraction (rules, no model key)", () => {
  it("proposes team candidates with evidence, keeps private ones back, and advances the cursor once", async () => {
    const t = new TranscriptBuilder();
    const said = t.user("From now on, integration tests in this repo hit a real PostgreSQL, never mocks.");
    t.assistant([{ text: "Understood." }]);
    t.user("Don't add closing summaries to your replies.");
    const first = await runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(true), shareExcerpt: true });
    expect(first.selector).toBe("rules");
    const [team, personal] = first.candidates;
    expect(personal!.proposal).toEqual({ skipped: "private" });
    expect(team!.proposal).toMatchObject({ state: "submitted" });
    const proposal = await getProposal(config, db, (team!.proposal as { id: string }).id);
    expect(proposal.source).toBe("extraction");
    expect(proposal.provenance).toMatchObject({ kind: "extraction", session: t.sessionId, selector: "rules", fromCursor: null, isExcerptShared: true, evidence: [{ uuid: said, role: "user" }] });

    const view = await getExtractionSession(db, PROJECT, t.sessionId);
    expect(view!.proposals.map((item) => item.id)).toEqual([proposal.id]);
    expect(view!.excerpt!.map((message) => message.uuid)).toContain(said);

    // Nothing new after the cursor: nothing proposed twice.
    const again = await runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: true });
    expect(again.candidates).toEqual([]);
    t.user("Always run the migration check before a release.");
    const later = await runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: true });
    expect(later.candidates.map((candidate) => candidate.name)).toEqual(["Always run the migration check before a release."]);
    expect((await getExtractionSession(db, PROJECT, t.sessionId))!.proposals).toHaveLength(2);
  });

  it("an older, shorter copy of the session proposes nothing again and leaves the cursor where it was", async () => {
    const t = new TranscriptBuilder();
    t.user("Remember that the PayFlow sandbox resets every Sunday.");
    t.assistant([{ text: "Noted." }]);
    const last = t.user("Remember that the checkout service freezes deploys in December.");
    const olderCopy = t.lines.slice(0, 2).map((line) => JSON.stringify(line)).join("\n") + "\n";
    const run = (transcript: string) => runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript, shareExcerpt: false });
    const inQueue = async () => (await getExtractionSession(db, PROJECT, t.sessionId))!.proposals.length;

    const full = await run(t.text());
    expect(full.candidates).toHaveLength(2);
    expect(full.cursor).toBe(last);
    const late = await run(olderCopy);
    expect(late).toMatchObject({ candidates: [], cursor: last });
    expect((await run(t.text())).candidates).toEqual([]);
    expect(await inQueue()).toBe(2);

    // The next real message is still extracted once.
    t.user("Remember that refunds above 500 EUR need a second approver.");
    expect((await run(t.text())).candidates).toHaveLength(1);
    expect(await inQueue()).toBe(3);
  });

  it("a lone surrogate in a line is replaced, not a failure: the run is kept once however often it is sent", async () => {
    const t = new TranscriptBuilder();
    t.user("Remember that the zeta service is versioned by date.");
    t.assistant([{ text: "ok" }]);
    t.user("Remember that the status page shows \ud83d when it is cut.");
    // JSON.stringify writes the lone half as the escape \ud83d, as Claude Code would.
    expect(t.text()).toContain("\\ud83d");
    const run = () => runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: true });
    const first = await run();
    expect(first.candidates.map((candidate) => candidate.proposal)).toEqual([expect.objectContaining({ state: "submitted" }), expect.objectContaining({ state: "submitted" })]);
    expect(first.candidates[1]!.body).toContain("shows \ufffd when");
    expect((await run()).candidates).toEqual([]);
    expect((await getExtractionSession(db, PROJECT, t.sessionId))!.proposals).toHaveLength(2);
  });

  it("a run sent again after it failed part-way (proposals kept, cursor not) answers with the proposals already in review", async () => {
    const t = new TranscriptBuilder();
    t.user("Remember that the ledger export runs at 04:00 UTC.");
    t.user("Always run the ledger dry-run before a release.");
    const run = () => runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: false });
    const first = await run();
    // What a failure after the proposals and before the cursor leaves behind.
    await db.extractionSession.update({ where: { projectId_sessionId: { projectId: PROJECT, sessionId: t.sessionId } }, data: { cursor: null } });
    const retried = await run();
    expect(retried.candidates.map((candidate) => candidate.proposal)).toEqual(first.candidates.map((candidate) => candidate.proposal));
    expect((await getExtractionSession(db, PROJECT, t.sessionId))!.proposals).toHaveLength(2);
  });

  it("a model candidate that quotes nothing the user wrote is not proposed, and the answer says why", async () => {
    const api = await startMessagesApiStub(
      { kind: "tool_use", calls: [{ name: "propose_memory", input: { file: "project_wallet_launch.md", type: "project", name: "Wallet launch moved", description: "The Wallet launch moved to 2027-05-01", body: "The Wallet launch moved to 2027-05-01.", scope: "team", evidence: ["not-a-message-of-this-session"] } }] },
      { kind: "text", text: "Done." },
    );
    try {
      const t = new TranscriptBuilder();
      t.user("Remember that the PayFlow sandbox resets every Sunday.");
      const withModel = { ...config, anthropicApiKey: "sk-ant-test", anthropicBaseUrl: api.baseUrl };
      const result = await runProjectExtraction(withModel, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: false });
      expect(result.selector).toBe("model");
      expect(result.candidates.map((candidate) => candidate.proposal)).toEqual([{ error: "Not proposed: its evidence quotes no message the user wrote in this session." }]);
      expect((await getExtractionSession(db, PROJECT, t.sessionId))!.proposals).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it("stores no excerpt unless shared, and another member cannot run someone's session", async () => {
    const t = new TranscriptBuilder();
    t.user("Always tag releases with the ticket number in our repo.");
    await runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(), shareExcerpt: false });
    const view = await getExtractionSession(db, PROJECT, t.sessionId);
    expect(view!.excerpt).toBeNull();
    expect(view!.proposals).toHaveLength(1);
    await expect(runProjectExtraction(config, db, { projectId: PROJECT, userId: priya, transcript: t.text(), shareExcerpt: false })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("refuses lines whose uuid holds a credential before anything is proposed: the cursor is stored and answered in clear", async () => {
    const t = new TranscriptBuilder();
    const token = ["glpat", "-", "Pr0beRecallCursor12345"].join("");
    t.user("From now on, every migration ships with a rollback script.", { uuid: token });
    await expect(runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: t.text(true), shareExcerpt: true })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "transcript" } });
    const stored = await db.extractionSession.findUnique({ where: { projectId_sessionId: { projectId: PROJECT, sessionId: t.sessionId } } });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await db.proposal.count({ where: { provenance: { contains: t.sessionId } } })).toBe(0);
  });

  it("refuses a transcript without a session id with a message naming the field", async () => {
    await expect(runProjectExtraction(config, db, { projectId: PROJECT, userId: omar, transcript: '{"type":"summary"}\n', shareExcerpt: false })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "sessionId" } });
  });
});
