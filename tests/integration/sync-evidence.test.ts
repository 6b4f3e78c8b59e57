import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { startSyncWorld } from "../helpers/member-sync-world";
import { TranscriptBuilder } from "../helpers/transcript-lines";
import { privateMemoryDir, sanitizeProjectPath, teamMemoryDir } from "@/lib/memdir/paths";
import { runSync } from "@/lib/sync/run-sync";
import { MAX_WRITE_EVIDENCE_BYTES } from "@/lib/transcripts/find-sync-write-evidence";

/**
 * Opt-in transcript evidence on sync proposals (X9): a member's Claude Code sessions wrote two
 * team files; `teammem sync` sends who wrote them and the messages that led there only when the
 * member opted in, redacted and capped. Real server routes over HTTP, real store and SQLite.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
let home = "";
let checkout = "";
let teamDir = "";
let transcriptsDir = "";
let unique = 0;
const TOKEN = ["xoxb", "-2847561930274-5830194726385-", "Hq7XkR2mWp9ZtL4vN8cB3yJd"].join("");

beforeAll(async () => {
  ensureCompiledCli();
  world = await startSyncWorld();
  ({ home, checkout } = await world.makeMemberHome("omar"));
  teamDir = teamMemoryDir(privateMemoryDir(path.join(home, ".claude"), checkout));
  transcriptsDir = path.join(home, ".claude", "projects", sanitizeProjectPath(checkout));
  await mkdir(transcriptsDir, { recursive: true });
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

const sync = (shareEvidence: boolean) =>
  runSync({ config: { claudeCodeEnv: {}, homeDir: home, faultPoint: null }, target: { server: world.base(), token: world.tokens.omar! }, cwd: checkout, projectId: null, isDryRun: false, clientVersion: "test", shareEvidence, lockWaitMs: 1_000 });

/** A team file the main agent wrote with the Write tool in a session, after the user asked for it. */
async function writtenInSession(userWords: string, question = "Why does checkout give up so early?", answer = "It retries once, then fails the order."): Promise<{ file: string; session: TranscriptBuilder; said: string }> {
  const file = `project_evidence_${++unique}.md`;
  const content = `---\nname: Evidence decision ${unique}\ndescription: Decision ${unique} the team took about checkout retries\ntype: project\n---\nCheckout retries ${unique} times.\n**Why:** the vendor throttles.\n**How to apply:** PayFlow calls.\n`;
  const session = new TranscriptBuilder();
  session.user(question);
  session.assistant([{ text: answer }]);
  const said = session.user(userWords);
  const reply = session.assistant([{ text: "Saving that for the team." }, { tool: "Write", id: "toolu_w", input: { file_path: path.join(teamDir, file), content } }]);
  session.toolResult("toolu_w", reply.toolLines.toolu_w!, "File created");
  await writeFile(path.join(transcriptsDir, `${session.sessionId}.jsonl`), session.text());
  await mkdir(teamDir, { recursive: true });
  await writeFile(path.join(teamDir, file), content);
  return { file, session, said };
}

async function storedProvenance(proposalId: string): Promise<Record<string, unknown>> {
  return JSON.parse((await world.db.proposal.findUniqueOrThrow({ where: { id: proposalId } })).provenance) as Record<string, unknown>;
}

describe("teammem sync --share-evidence", () => {
  it("sends no transcript words without the opt-in: the proposal says no evidence was shared", async () => {
    await sync(false); // first contact: the store's files arrive
    const { file } = await writtenInSession(`Remember for the team that checkout retries three times. The bot token is ${TOKEN}.`);
    const sentBefore = world.requests.length;
    const report = await sync(false);
    expect(report.proposed).toMatchObject([{ path: file, kind: "new" }]);
    const provenance = await storedProvenance(report.proposed[0]!.proposalId!);
    expect(provenance).toMatchObject({ isEvidenceShared: false, clientVersion: "test" });
    expect(provenance).not.toHaveProperty("writeEvidence");
    const sent = world.requests.slice(sentBefore).map((request) => request.body).join("\n");
    expect(sent).not.toContain("Remember for the team");
    expect(sent).not.toContain(TOKEN);
  });

  it("with the opt-in, attaches the session, who wrote it and the user's words first, redacted and capped", async () => {
    // Long multi-byte messages: three 500-character excerpts of them pass the cap, so context is dropped from the end.
    const cjk = "決済の再試行 ".repeat(100);
    const long = `Remember for the team that checkout retries three times. The bot token is ${TOKEN}. ${cjk}`;
    const { file, session, said } = await writtenInSession(long, `Why does checkout give up so early? ${cjk}`, `It retries once, then fails the order. ${cjk}`);
    const sentBefore = world.requests.length;
    const report = await sync(true);
    expect(report.proposed).toMatchObject([{ path: file, kind: "new" }]);
    const provenance = await storedProvenance(report.proposed[0]!.proposalId!);
    expect(provenance).toMatchObject({ isEvidenceShared: true, writeEvidence: { session: session.sessionId, writtenBy: "main-agent" } });
    const evidence = provenance.writeEvidence as { messages: { uuid: string; role: string; excerpt: string }[] };
    expect(evidence.messages[0]).toMatchObject({ uuid: said, role: "user" }); // the request that led to the write leads
    expect(evidence.messages[0]!.excerpt).toContain("Remember for the team that checkout retries three times");
    expect(evidence.messages.map((message) => message.role)).toEqual(["user", "user"]); // capped: Claude's two replies dropped
    expect(Buffer.byteLength(JSON.stringify(evidence))).toBeLessThanOrEqual(MAX_WRITE_EVIDENCE_BYTES);
    const sent = world.requests.slice(sentBefore).map((request) => request.body).join("\n");
    expect(sent).toContain("Remember for the team");
    expect(sent).not.toContain(TOKEN);
    expect(JSON.stringify(provenance)).not.toContain(TOKEN);
  });

  it("the CLI's --share-evidence flag and TEAMMEM_SHARE_SYNC_EVIDENCE both opt in; a file no session wrote carries none", async () => {
    const viaFlag = await writtenInSession("Remember for the team that refunds go through the ledger.");
    const flagRun = await world.teammem(["sync", "--share-evidence", "--json"], { home, cwd: checkout, token: world.tokens.omar! });
    expect(flagRun.code, flagRun.stderr).toBe(1); // 1: proposals wait for review
    const flagReport = JSON.parse(flagRun.stdout) as { proposed: { path: string; proposalId: string }[] };
    expect(await storedProvenance(flagReport.proposed.find((entry) => entry.path === viaFlag.file)!.proposalId)).toMatchObject({ writeEvidence: { session: viaFlag.session.sessionId } });

    await writeFile(path.join(teamDir, "project_typed_by_hand.md"), `---\nname: Typed by hand\ndescription: A note the member typed without Claude\ntype: project\n---\nThe on-call rota changes on Mondays.\n`);
    const settingRun = await world.teammem(["sync", "--json"], { home, cwd: checkout, token: world.tokens.omar!, extraEnv: { TEAMMEM_SHARE_SYNC_EVIDENCE: "on" } });
    const settingReport = JSON.parse(settingRun.stdout) as { proposed: { path: string; proposalId: string }[] };
    const byHand = await storedProvenance(settingReport.proposed.find((entry) => entry.path === "project_typed_by_hand.md")!.proposalId);
    expect(byHand).toMatchObject({ isEvidenceShared: true });
    expect(byHand).not.toHaveProperty("writeEvidence");
  });
});
