import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveAs, memoryText, readTeamFile, writeTeamFile } from "../helpers/team-files";
import { PROJECT, startSyncWorld, type SyncMember } from "../helpers/member-sync-world";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { syncStateFile } from "@/lib/sync/read-sync-head";
import { syncExitCode } from "@/lib/sync/sync-report";

/**
 * What waits for review follows the member's folder, and a decision never destroys text that
 * exists only on the member's machine: a file put back, deleted, or changed into something that
 * cannot travel while its proposal waits; team/ deleted as a whole; a dry run; a damaged state.
 * Each case has a member of its own (a fresh home and checkout) on one real server.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
type Member = SyncMember;
let homes = 0;
let unique = 0;

beforeAll(async () => {
  world = await startSyncWorld();
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

const newMember = () => world.makeMember(`waiting-${++homes}`);
const sync = (member: Member, options: { isDryRun?: boolean } = {}) => world.syncAs(member, options);

const memory = (name: string, body: string) => memoryText(name, body, `Decision ${++unique} about ${name.toLowerCase()}`);
const write = (member: Member, file: string, content: string) => writeTeamFile(member.teamDir, file, content);
const read = (member: Member, file: string) => readTeamFile(member.teamDir, file);
const remove = (member: Member, file: string) => rm(path.join(member.teamDir, file));
const stateOf = (proposalId: string) => world.db.proposal.findUniqueOrThrow({ where: { id: proposalId } }).then((proposal) => proposal.state);
const reject = (proposalId: string, reason: string) => rejectProposal(world.config, world.db, { proposalId, actorId: world.userIds.lena, reason });
const TOKEN = ["ghp", "_", "K4nB6cD1fG5hJ0kS2aE4yR7mK2pQ9xL4vT8q"].join("");

/** A member whose team/ holds a store file of their own, synced: returns its name and text. */
async function memberWithStoreFile(): Promise<{ member: Member; file: string; text: string }> {
  const member = await newMember();
  await sync(member);
  const file = `project_waiting_${++unique}.md`;
  await write(member, file, memory(`Waiting ${unique}`, "Deploys happen on Tuesdays."));
  await approveAs(world, world.userIds.lena, (await sync(member)).proposed[0]!.proposalId!);
  await sync(member);
  return { member, file, text: (await read(member, file))! };
}

describe("a file changed again while its proposal waits", () => {
  it("put back as synced while its retirement waits: the retirement is withdrawn and the file stays", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await remove(member, file);
    const retirement = (await sync(member)).proposed[0]!.proposalId!;
    await write(member, file, text);
    const report = await sync(member);
    expect(report.turnedDown).toMatchObject([{ path: file, state: "withdrawn" }]);
    expect(await stateOf(retirement)).toBe("withdrawn");
    expect(await read(member, file)).toBe(text);
    const next = await sync(member);
    expect(syncExitCode(next)).toBe(0);
    expect(await read(member, file)).toBe(text);
  });

  it("a new file deleted before review: the proposal is withdrawn and never reaches the store", async () => {
    const member = await newMember();
    await sync(member);
    await write(member, "project_private_slip.md", memory("Private slip", "Something that should not have been shared."));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await remove(member, "project_private_slip.md");
    const report = await sync(member);
    expect(report.turnedDown).toMatchObject([{ path: "project_private_slip.md", state: "withdrawn" }]);
    expect(await stateOf(proposalId)).toBe("withdrawn");
    await expect(approveAs(world, world.userIds.lena, proposalId)).rejects.toThrow();
    expect(await world.db.storeMemory.count({ where: { projectId: PROJECT, path: "project_private_slip.md" } })).toBe(0);
  });

  it("a new file written and deleted while offline is never sent", async () => {
    const member = await newMember();
    await sync(member);
    await write(member, "project_offline_slip.md", memory("Offline slip", "Written on a plane, then thought better of."));
    world.setOffline(true);
    const offline = await sync(member).finally(() => world.setOffline(false));
    expect(offline.outbox).toBe(1);
    await remove(member, "project_offline_slip.md");
    const online = await sync(member);
    expect(online.proposed).toEqual([]);
    expect(await world.db.proposal.count({ where: { path: "project_offline_slip.md" } })).toBe(0);
  });

  it("a store file whose change waits, then deleted: the proposal becomes the retirement", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await write(member, file, text.replace("Tuesdays", "Thursdays"));
    const change = (await sync(member)).proposed[0]!.proposalId!;
    await remove(member, file);
    const report = await sync(member);
    expect(report.proposed).toMatchObject([{ path: file, kind: "revision", proposalId: change }]);
    const latest = await world.db.proposalRevision.findFirstOrThrow({ where: { proposalId: change }, orderBy: { revision: "desc" } });
    expect(latest.content).toBeNull();
    await approveAs(world, world.userIds.lena, change);
    expect(await world.db.storeMemory.count({ where: { projectId: PROJECT, path: file } })).toBe(0);
  });
});

describe("what waits, after the folder changed more than once", () => {
  const latestContent = async (proposalId: string) => (await world.db.proposalRevision.findFirstOrThrow({ where: { proposalId }, orderBy: { revision: "desc" } })).content;

  it("deleted, re-created with other text, deleted again: what waits is a retirement, and the deleted draft never lands", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await remove(member, file);
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await write(member, file, text.replace("Tuesdays", "Fridays (a draft I deleted)"));
    await sync(member);
    await remove(member, file);
    expect((await sync(member)).proposed).toMatchObject([{ path: file, kind: "revision", proposalId }]);
    expect(await latestContent(proposalId)).toBeNull();
    await approveAs(world, world.userIds.lena, proposalId);
    expect(await world.db.storeMemory.count({ where: { projectId: PROJECT, path: file } })).toBe(0);
  });

  it("the same, offline throughout: the retirement is what is sent last", async () => {
    const { member, file, text } = await memberWithStoreFile();
    world.setOffline(true);
    try {
      await remove(member, file);
      await sync(member);
      await write(member, file, text.replace("Tuesdays", "Mondays (a draft I deleted)"));
      await sync(member);
      await remove(member, file);
      await sync(member);
    } finally {
      world.setOffline(false);
    }
    const proposalId = (await sync(member)).proposed.at(-1)!.proposalId!;
    expect(await latestContent(proposalId)).toBeNull();
  });

  it("a store file back to exactly the store's text after a decision kept it aside proposes nothing", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await write(member, file, text.replace("Tuesdays", "Thursdays"));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await write(member, file, `${text}\ntoken ${TOKEN}\n`);
    await reject(proposalId, "no");
    await sync(member);
    await write(member, file, text);
    const report = await sync(member);
    expect(report.proposed).toEqual([]);
    expect(syncExitCode(report)).toBe(0);
  });
});

describe("a decision on a file that cannot travel now", () => {
  it("a rejected new file whose newer text holds a secret stays untouched", async () => {
    const member = await newMember();
    await sync(member);
    await write(member, "project_notes.md", memory("Notes", "Deploy steps, first draft."));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    const work = memory("Notes", `Deploy steps, much longer now.\nCI token ${TOKEN}`);
    await write(member, "project_notes.md", work);
    await reject(proposalId, "too rough");
    const report = await sync(member);
    expect(await read(member, "project_notes.md")).toBe(work);
    expect(report.turnedDown).toMatchObject([{ path: "project_notes.md", state: "rejected", restored: false }]);
    expect(report.kept.map((entry) => entry.path)).toContain("project_notes.md");
    expect(syncExitCode(report)).toBe(1);
  });

  it("a rejected retirement of a file re-created with a secret leaves the new text as it is", async () => {
    const { member, file } = await memberWithStoreFile();
    await remove(member, file);
    const retirement = (await sync(member)).proposed[0]!.proposalId!;
    const mine = memory("Rewrite", `My rewrite, with the token ${TOKEN}.`);
    await write(member, file, mine);
    await reject(retirement, "still valid");
    await sync(member);
    expect(await read(member, file)).toBe(mine);
  });

  it("an approved retirement of a file re-created with a secret leaves the new text as it is", async () => {
    const { member, file } = await memberWithStoreFile();
    await remove(member, file);
    const retirement = (await sync(member)).proposed[0]!.proposalId!;
    const mine = memory("Rewrite", `My rewrite, with the token ${TOKEN}.`);
    await write(member, file, mine);
    await approveAs(world, world.userIds.lena, retirement);
    await sync(member);
    expect(await read(member, file)).toBe(mine);
  });
});

describe("a change whose answer was lost", () => {
  it("a new file deleted, or a changed file put back, after its submission's answer was lost: the proposal the server made is withdrawn", async () => {
    const member = await newMember();
    await sync(member);
    const file = `project_lost_answer_${++unique}.md`;
    await write(member, file, memory("Lost answer", "Staging is reset on Mondays."));
    world.loseNextAnswerTo("/sync/proposals");
    const lost = await sync(member);
    expect(lost.offlineReason).toBeTruthy();
    const made = await world.db.proposal.findFirstOrThrow({ where: { path: file } });
    expect(made.state).toBe("submitted");
    await remove(member, file);
    const report = await sync(member);
    expect(report.turnedDown).toMatchObject([{ path: file, state: "withdrawn" }]);
    expect(await stateOf(made.id)).toBe("withdrawn");
    expect(syncExitCode(await sync(member))).toBe(0);

    const { member: other, file: storeFile, text } = await memberWithStoreFile();
    await write(other, storeFile, text.replace("Tuesdays", "Fridays"));
    world.loseNextAnswerTo("/sync/proposals");
    await sync(other);
    const edit = await world.db.proposal.findFirstOrThrow({ where: { path: storeFile, state: "submitted" } });
    await write(other, storeFile, text);
    expect((await sync(other)).turnedDown).toMatchObject([{ path: storeFile, state: "withdrawn" }]);
    expect(await stateOf(edit.id)).toBe("withdrawn");
  });
});

describe("the folder and the state as a whole", () => {
  it("--project naming another project than the one team/ syncs with is refused before anything moves, also offline", async () => {
    const { member, file } = await memberWithStoreFile();
    const stateBefore = await readFile(syncStateFile(member.memoryDir), "utf8");
    const proposalsBefore = await world.db.proposal.count();
    for (const isOffline of [false, true]) {
      world.setOffline(isOffline);
      const refused = await world.syncAs(member, { projectId: "acme-typo" }).then(
        () => null,
        (error: Error) => error,
      );
      world.setOffline(false);
      expect(refused?.message).toMatch(/holds the memories of project acme-checkout, which this checkout syncs with; syncing it with acme-typo would propose every one of them there/);
    }
    expect(await readFile(syncStateFile(member.memoryDir), "utf8")).toBe(stateBefore);
    expect(await world.db.proposal.count()).toBe(proposalsBefore);
    expect(await read(member, file)).toBeTruthy();
    expect(syncExitCode(await sync(member))).toBe(0);
  });

  it("team/ deleted as a whole is filled again from the store, and nothing is proposed for retirement", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await rm(member.teamDir, { recursive: true });
    const report = await sync(member);
    expect(report.proposed).toEqual([]);
    expect(report.stateProblem).toMatch(/missing/);
    expect(await read(member, file)).toBe(text);
    expect(syncExitCode(await sync(member))).toBe(0);
  });

  it("team/ emptied, or deleted and made again, is filled again too: nothing is proposed for retirement", async () => {
    const { member, file, text } = await memberWithStoreFile();
    const proposalsBefore = await world.db.proposal.count();
    await rm(member.teamDir, { recursive: true });
    await mkdir(member.teamDir);
    await writeFile(path.join(member.teamDir, "notes.txt"), "not a memory\n");
    const report = await sync(member);
    expect(report.proposed).toEqual([]);
    expect(report.stateProblem).toMatch(/your team\/ folder was empty: it is filled again from the store/);
    expect(await read(member, file)).toBe(text);
    expect(syncExitCode(await sync(member))).toBe(0);
    expect(await world.db.proposal.count()).toBe(proposalsBefore);
  });

  it("team/ deleted as a whole while a change waits: every file comes back, the proposal stays in review, unsent text is kept", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await write(member, file, text.replace("Tuesdays", "Thursdays"));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await write(member, "project_unsent.md", memory("Unsent", "Written on a plane."));
    world.setOffline(true);
    await sync(member).finally(() => world.setOffline(false));
    await rm(member.teamDir, { recursive: true });
    const refill = await sync(member);
    expect(refill.stateProblem).toMatch(/proposal\(s\) in review stay on the server; 1 change\(s\) not sent yet are kept/);
    const kept = await readdir(`${member.memoryDir}.teammem-kept`);
    expect(kept.some((name) => name.startsWith("project_unsent.md"))).toBe(true);
    for (let again = 0; again < 2; again++) expect(syncExitCode(await sync(member))).toBe(0);
    expect(await read(member, file)).toBe(text);
    expect(await stateOf(proposalId)).toBe("submitted");
  });

  it("team/MEMORY.md deleted by hand comes back with the next sync", async () => {
    const member = await newMember();
    await sync(member);
    await rm(path.join(member.teamDir, "MEMORY.md"));
    const report = await sync(member);
    expect(syncExitCode(report)).toBe(0);
    expect(await read(member, "MEMORY.md")).toContain("- [");
  });

  it("a store file with a waiting change, deleted, then the state cut short: its retirement is proposed and the file not revived", async () => {
    const { member, file, text } = await memberWithStoreFile();
    await write(member, file, text.replace("Tuesdays", "Wednesdays"));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await remove(member, file);
    const state = await readFile(syncStateFile(member.memoryDir), "utf8");
    await writeFile(syncStateFile(member.memoryDir), state.slice(0, state.length - 40));
    const report = await sync(member);
    expect(report.stateProblem).toMatch(/damaged past its queue/);
    expect(report.proposed).toMatchObject([{ path: file, kind: "revision", proposalId }]);
    expect(await read(member, file)).toBeNull();
  });

  it("a dry run changes nothing on the server, and creates no folder for a member who never synced", async () => {
    const member = await newMember();
    const before = await world.db.memberSync.findMany({ where: { projectId: PROJECT } });
    const report = await sync(member, { isDryRun: true });
    expect(report.pulled.added.length).toBeGreaterThan(0);
    expect(await world.db.memberSync.findMany({ where: { projectId: PROJECT } })).toEqual(before);
    await expect(stat(path.dirname(member.memoryDir))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a folder where the sync state belongs is kept aside and the sync goes on", async () => {
    const member = await newMember();
    await mkdir(path.join(syncStateFile(member.memoryDir), "inner"), { recursive: true });
    const report = await sync(member);
    expect(report.mode).toBe("full");
    expect((await stat(syncStateFile(member.memoryDir))).isFile()).toBe(true);
    const beside = await readdir(path.dirname(syncStateFile(member.memoryDir)));
    expect(beside.some((name) => name.startsWith(`${path.basename(syncStateFile(member.memoryDir))}.folder-kept-`))).toBe(true);
    expect(syncExitCode(await sync(member))).toBe(0);
  });

  it("a deletion queued offline survives a state file cut short: it is sent, and the file is not brought back", async () => {
    const { member, file } = await memberWithStoreFile();
    await remove(member, file);
    world.setOffline(true);
    await sync(member).finally(() => world.setOffline(false));
    const text = await readFile(syncStateFile(member.memoryDir), "utf8");
    await writeFile(syncStateFile(member.memoryDir), text.slice(0, text.length - 40));
    const report = await sync(member);
    expect(report.stateProblem).toMatch(/damaged past its queue/);
    expect(report.proposed).toMatchObject([{ path: file, kind: "retirement" }]);
    expect(await read(member, file)).toBeNull();
  });

  it("the sync that makes a proposal already says it waits for review (exit 1)", async () => {
    const member = await newMember();
    await sync(member);
    await write(member, "project_exit_code.md", memory("Exit code", "Proposals wait."));
    const report = await sync(member);
    expect(report.proposed).toHaveLength(1);
    expect(syncExitCode(report)).toBe(1);
  });
});
