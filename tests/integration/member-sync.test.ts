import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { approveAs, memoryText, readTeamFile, writeTeamFile as writeTeamFileIn } from "../helpers/team-files";
import { PROJECT, startSyncWorld } from "../helpers/member-sync-world";
import { privateMemoryDir, teamMemoryDir } from "@/lib/memdir/paths";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { runSync } from "@/lib/sync/run-sync";
import { syncStateFile } from "@/lib/sync/read-sync-head";
import { readSyncState, saveSyncState } from "@/lib/sync/sync-state";
import type { SyncReport } from "@/lib/sync/sync-report";

/**
 * Member sync end to end: two members' machines (Claude Code's layout, real git checkouts) and a
 * real team server (route handlers over HTTP, real store, real SQLite). Each member runs the sync
 * client; the lead reviews through lib/review as the dashboard does.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
type Member = { name: "omar" | "priya"; home: string; checkout: string; teamDir: string; memoryDir: string };
let omar: Member;
let priya: Member;
let unique = 0;

beforeAll(async () => {
  ensureCompiledCli();
  world = await startSyncWorld();
  const member = async (name: Member["name"]): Promise<Member> => {
    const { home, checkout } = await world.makeMemberHome(name);
    const memoryDir = privateMemoryDir(path.join(home, ".claude"), checkout);
    return { name, home, checkout, memoryDir, teamDir: teamMemoryDir(memoryDir) };
  };
  omar = await member("omar");
  priya = await member("priya");
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

function sync(member: Member, options: { isDryRun?: boolean } = {}): Promise<SyncReport> {
  return runSync({
    config: { claudeCodeEnv: {}, homeDir: member.home, faultPoint: null },
    target: { server: world.base(), token: world.tokens[member.name]! },
    cwd: member.checkout,
    projectId: null,
    isDryRun: options.isDryRun ?? false,
    clientVersion: "test",
    lockWaitMs: 1_000,
  });
}

const memory = (name: string, body: string, description = `Decision ${++unique} about the checkout`) => memoryText(name, body, description);

const writeTeamFile = (member: Member, file: string, content: string) => writeTeamFileIn(member.teamDir, file, content);

const approve = (proposalId: string) => approveAs(world, world.userIds.lena, proposalId);

const readTeam = (member: Member, file: string) => readTeamFile(member.teamDir, file);

describe("teammem sync between two members", () => {
  it("A's new file becomes a sync proposal; once approved, B gets it with the store commit's time as mtime; a second sync is a no-op", async () => {
    await sync(omar);
    await sync(priya);
    expect(await readTeam(priya, "MEMORY.md")).toContain("- [");

    await writeTeamFile(omar, "project_retry_budget.md", memory("Retry budget", "Retry budget is 30 per minute."));
    const first = await sync(omar);
    expect(first.proposed).toMatchObject([{ path: "project_retry_budget.md", kind: "new" }]);
    const proposalId = first.proposed[0]!.proposalId!;
    const stored = await world.db.proposal.findUniqueOrThrow({ where: { id: proposalId } });
    expect(stored).toMatchObject({ source: "sync", path: "project_retry_budget.md", state: "submitted" });
    expect(JSON.parse(stored.provenance)).toMatchObject({ checkout: expect.stringContaining("checkout"), clientVersion: "test" });
    // A second sync before review proposes nothing again and says it is pending.
    const again = await sync(omar);
    expect(again.proposed).toEqual([]);
    expect(again.waiting).toMatchObject([{ path: "project_retry_budget.md", state: "submitted" }]);

    await approve(proposalId);
    const pulled = await sync(priya);
    expect(pulled.pulled.added).toContain("project_retry_budget.md");
    expect(await readTeam(priya, "project_retry_budget.md")).toContain("Retry budget is 30 per minute.");
    expect(await readTeam(priya, "MEMORY.md")).toContain("project_retry_budget.md");
    const row = await world.db.storeMemory.findUniqueOrThrow({ where: { projectId_path: { projectId: PROJECT, path: "project_retry_budget.md" } } });
    expect((await stat(path.join(priya.teamDir, "project_retry_budget.md"))).mtime.getTime()).toBe(row.changedAt.getTime());

    const landed = await sync(omar);
    expect(landed.landed).toEqual(["project_retry_budget.md"]);
    expect(landed.proposed).toEqual([]);
    const quiet = await sync(priya);
    expect(quiet.mode).toBe("unchanged");
    expect(quiet.proposed.length + quiet.pulled.added.length + quiet.pulled.changed.length).toBe(0);

    const syncs = await world.db.memberSync.findMany({ where: { projectId: PROJECT } });
    const head = (await world.db.systemState.findUniqueOrThrow({ where: { key: "read-model-commit" } })).value;
    expect(syncs.find((row) => row.userId === world.userIds.priya)).toMatchObject({ clientVersion: "test", heldCommit: head });
  });

  it("both edit one file: different fields merge at approval; the same field conflicts and keeps both texts", async () => {
    await writeTeamFile(omar, "project_queue.md", memory("Queue", "Queue depth alarm at 500."));
    await approve((await sync(omar)).proposed[0]!.proposalId!);
    await sync(omar);
    await sync(priya);
    const base = (await readTeam(priya, "project_queue.md"))!;

    await writeTeamFile(omar, "project_queue.md", base.replace(/^description: .*$/m, "description: Alarm threshold for the payment queue"));
    await writeTeamFile(priya, "project_queue.md", base.replace("Queue depth alarm at 500.", "Queue depth alarm at 800."));
    const fromOmar = (await sync(omar)).proposed[0]!.proposalId!;
    const fromPriya = (await sync(priya)).proposed[0]!.proposalId!;
    await approve(fromOmar);
    await approve(fromPriya);
    expect((await world.db.proposal.findUniqueOrThrow({ where: { id: fromPriya } })).state).toBe("committed");
    const priyaAfter = await sync(priya);
    expect(priyaAfter.landed).toEqual(["project_queue.md"]);
    const merged = (await readTeam(priya, "project_queue.md"))!;
    expect(merged).toContain("Alarm threshold for the payment queue");
    expect(merged).toContain("Queue depth alarm at 800.");
    const omarAfter = await sync(omar);
    expect(omarAfter.proposed).toEqual([]);
    expect(await readTeam(omar, "project_queue.md")).toBe(merged);

    await writeTeamFile(omar, "project_queue.md", merged.replace("800", "900"));
    await writeTeamFile(priya, "project_queue.md", merged.replace("800", "1000"));
    const first = (await sync(omar)).proposed[0]!.proposalId!;
    const second = (await sync(priya)).proposed[0]!.proposalId!;
    await approve(first);
    await approve(second).catch(() => undefined); // the same field changed on both sides: no commit, the proposal waits for the reviewer
    expect((await world.db.proposal.findUniqueOrThrow({ where: { id: second } })).state).toBe("conflicted");
    const status = await sync(priya);
    expect(status.waiting).toMatchObject([{ path: "project_queue.md", state: "conflicted", storeChangedToo: true }]);
    expect(await readTeam(priya, "project_queue.md")).toContain("1000"); // hers is never overwritten while it waits
  });

  it("A deletes a file → retirement; while pending the file is not revived; approved, B's copy goes; B's unproposed edits are kept and reported", async () => {
    await writeTeamFile(omar, "project_old_flag.md", memory("Old flag", "The legacy flag is on."));
    await writeTeamFile(omar, "project_other_flag.md", memory("Other flag", "The other flag is off."));
    for (const proposed of (await sync(omar)).proposed) await approve(proposed.proposalId!);
    await sync(omar);
    await sync(priya);
    expect(await readTeam(priya, "project_old_flag.md")).not.toBeNull();

    await rm(path.join(omar.teamDir, "project_old_flag.md"));
    await rm(path.join(omar.teamDir, "project_other_flag.md"));
    const retire = await sync(omar);
    expect(retire.proposed.map((entry) => entry.kind)).toEqual(["retirement", "retirement"]);
    expect(Object.keys((await readSyncState(omar.memoryDir)).state!.tombstones).sort()).toEqual(["project_old_flag.md", "project_other_flag.md"]);
    await sync(omar);
    expect(await readTeam(omar, "project_old_flag.md")).toBeNull(); // the tombstone holds

    // Priya edits one of them locally before the retirement lands.
    const priyaCopy = (await readTeam(priya, "project_other_flag.md"))!;
    await writeTeamFile(priya, "project_other_flag.md", priyaCopy.replace("is off", "is off except in staging"));
    for (const proposed of retire.proposed) await approve(proposed.proposalId!);
    const report = await sync(priya);
    expect(report.pulled.removed).toEqual(["project_old_flag.md"]);
    expect(await readTeam(priya, "project_old_flag.md")).toBeNull();
    expect(await readTeam(priya, "project_other_flag.md")).toContain("except in staging");
    expect(report.kept.map((entry) => entry.path)).toContain("project_other_flag.md");
  });

  it("a rejected retirement brings the file back with the reason; a rejected change restores the store's text and keeps the member's aside", async () => {
    await writeTeamFile(omar, "project_keep_me.md", memory("Keep me", "Deploys happen on Tuesdays."));
    await approve((await sync(omar)).proposed[0]!.proposalId!);
    await sync(omar);
    await rm(path.join(omar.teamDir, "project_keep_me.md"));
    const retirement = (await sync(omar)).proposed[0]!.proposalId!;
    await rejectProposal(world.config, world.db, { proposalId: retirement, actorId: world.userIds.lena, reason: "still true for the Tuesday train" });
    const back = await sync(omar);
    expect(back.turnedDown).toMatchObject([{ path: "project_keep_me.md", state: "rejected", reason: "still true for the Tuesday train", restored: true }]);
    expect(await readTeam(omar, "project_keep_me.md")).toContain("Deploys happen on Tuesdays.");

    const original = (await readTeam(omar, "project_keep_me.md"))!;
    await writeTeamFile(omar, "project_keep_me.md", original.replace("Tuesdays", "Fridays"));
    const change = (await sync(omar)).proposed[0]!.proposalId!;
    await rejectProposal(world.config, world.db, { proposalId: change, actorId: world.userIds.lena, reason: "Fridays are frozen" });
    const restored = await sync(omar);
    expect(await readTeam(omar, "project_keep_me.md")).toBe(original);
    expect(await readFile(restored.turnedDown[0]!.keptAt!, "utf8")).toContain("Fridays");
    expect(restored.proposed).toEqual([]);
  });

  it("offline: changes wait in the outbox and are submitted exactly once on the next sync", async () => {
    await writeTeamFile(priya, "project_offline.md", memory("Offline note", "Written on a plane."));
    world.setOffline(true);
    const offline = await sync(priya).finally(() => world.setOffline(false));
    expect(offline).toMatchObject({ mode: "offline", outbox: 1 });
    expect(offline.offlineReason).toMatch(/Could not reach/);
    const before = await world.db.proposal.count({ where: { path: "project_offline.md" } });
    expect(before).toBe(0);
    const online = await sync(priya);
    expect(online.proposed).toMatchObject([{ path: "project_offline.md", kind: "new" }]);
    await sync(priya);
    expect(await world.db.proposal.count({ where: { path: "project_offline.md" } })).toBe(1);
  });

  it("a sync killed between writing files and saving its state converges with no loss and no duplicate proposal", async () => {
    await writeTeamFile(omar, "project_killed.md", memory("Killed sync", "Store side text."));
    await approve((await sync(omar)).proposed[0]!.proposalId!);
    await writeTeamFile(priya, "project_pending_local.md", memory("Pending local", "Priya's own note."));
    const killed = await world.teammem(["sync"], { home: priya.home, cwd: priya.checkout, token: world.tokens.priya!, extraEnv: { TEAMMEM_FAULT_POINT: "sync-after-files" } });
    expect(killed.signal).toBe("SIGKILL");
    expect(await readTeam(priya, "project_killed.md")).toContain("Store side text."); // files were written, state was not
    const proposalsBefore = await world.db.proposal.count({ where: { path: { in: ["project_killed.md", "project_pending_local.md"] }, source: "sync" } });

    const next = await world.teammem(["sync", "--json"], { home: priya.home, cwd: priya.checkout, token: world.tokens.priya! });
    const report = JSON.parse(next.stdout) as SyncReport;
    expect(report.proposed).toEqual([]);
    expect(report.waiting.map((entry) => entry.path)).toContain("project_pending_local.md");
    expect(next.code).toBe(1); // pending review needs attention
    expect(await world.db.proposal.count({ where: { path: { in: ["project_killed.md", "project_pending_local.md"] }, source: "sync" } })).toBe(proposalsBefore);
    expect(await world.db.proposal.count({ where: { path: "project_pending_local.md" } })).toBe(1);
    expect(await readTeam(priya, "project_pending_local.md")).toContain("Priya's own note.");
  });

  it("a team file with a secret never reaches the server: not in the database, not in any request", async () => {
    const secret = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");
    await writeTeamFile(omar, "project_deploy_bot.md", memory("Deploy bot", `The bot token is ${secret}.`));
    const requestsBefore = world.requests.length;
    const report = await sync(omar);
    expect(report.skipped).toMatchObject([{ path: "project_deploy_bot.md", reason: expect.stringContaining("holds a secret") }]);
    expect(report.proposed).toEqual([]);
    const leaked = world.requests.slice(requestsBefore).filter((request) => (request.url + request.body).includes(secret.slice(4)));
    expect(leaked).toEqual([]);
    const revisions = await world.db.proposalRevision.findMany({ select: { content: true } });
    const proposals = await world.db.proposal.findMany({ select: { provenance: true, path: true, checks: true } });
    expect(JSON.stringify([revisions, proposals])).not.toContain(secret.slice(4));
    await rm(path.join(omar.teamDir, "project_deploy_bot.md"));
  });

  it("hostile keys and files that cannot travel are listed with their reason, never sent", async () => {
    const outside = path.join(world.root, "outside.md");
    await writeFile(outside, memory("Outside", "Not in the team folder."));
    await symlink(outside, path.join(omar.teamDir, "project_link.md"));
    await writeTeamFile(omar, "project_big.md", memory("Big", "x".repeat(260_000)));
    await writeTeamFile(omar, "dir/.hidden.md", memory("Hidden", "Hidden file."));
    await writeTeamFile(omar, "project_fullwidth\uFF0E\uFF0E.md", memory("Fullwidth", "Look-alike dots."));
    const report = await sync(omar);
    const reasons = Object.fromEntries(report.skipped.map((entry) => [entry.path, entry.reason]));
    expect(reasons["project_link.md"]).toMatch(/outside the memory directory/);
    expect(reasons["project_big.md"]).toMatch(/250,000 bytes/);
    expect(reasons["dir/.hidden.md"]).toMatch(/invalid name/);
    expect(reasons["project_fullwidth\uFF0E\uFF0E.md"]).toMatch(/invalid name/);
    expect(report.proposed).toEqual([]);
    const cli = await world.teammem(["sync", "--quiet"], { home: omar.home, cwd: omar.checkout, token: world.tokens.omar! });
    expect(cli.code).toBe(1);
    expect(cli.stdout.trim().split("\n")).toHaveLength(1);
    expect(cli.stdout).toMatch(/4 skipped/);
    for (const file of ["project_link.md", "project_big.md", "dir", "project_fullwidth\uFF0E\uFF0E.md"]) await rm(path.join(omar.teamDir, file), { recursive: true });
  });

  it("a rewritten store history: a full comparison brings team/ to the new head without deleting what the store did not retire", async () => {
    await writeTeamFile(priya, "project_local_only.md", memory("Local only", "Not proposed yet."));
    const dryRun = await sync(priya, { isDryRun: true });
    expect(dryRun.proposed).toMatchObject([{ path: "project_local_only.md", kind: "new", proposalId: null }]);
    expect(await world.db.proposal.count({ where: { path: "project_local_only.md" } })).toBe(0);
    await rm(path.join(priya.teamDir, "project_local_only.md"));
    await sync(priya);

    // Rewrite main: a new root commit holding the same tree (as a history squash would).
    const clone = path.join(world.root, "rewrite-clone");
    execFileSync("git", ["clone", "-q", world.config.storeRemote, clone]);
    const tree = execFileSync("git", ["-C", clone, "rev-parse", "HEAD^{tree}"]).toString().trim();
    const root = execFileSync("git", ["-C", clone, "-c", "user.name=Ops", "-c", "user.email=ops@example.invalid", "commit-tree", tree, "-m", "squash history"]).toString().trim();
    execFileSync("git", ["-C", clone, "push", "-q", "--force", "origin", `${root}:main`]);
    const { refreshStore } = await import("@/lib/store/read-store");
    await refreshStore(world.config, { force: true });

    const before = (await readSyncState(priya.memoryDir)).state!;
    const report = await sync(priya);
    expect(report.mode).toBe("full");
    expect(report.pulled.removed).toEqual([]);
    expect(report.proposed).toEqual([]);
    const after = (await readSyncState(priya.memoryDir)).state!;
    expect(after.syncedCommit).toBe(root);
    expect(Object.keys(after.files).sort()).toEqual(Object.keys(before.files).sort());
  });
  it("a file edited again while its proposal waits becomes the next revision of that proposal, not a second one", async () => {
    await writeTeamFile(omar, "project_revised.md", memory("Revised", "Cache TTL is 60 seconds."));
    const first = await sync(omar);
    const proposalId = first.proposed[0]!.proposalId!;
    await writeTeamFile(omar, "project_revised.md", memory("Revised", "Cache TTL is 90 seconds."));
    const second = await sync(omar);
    expect(second.proposed).toMatchObject([{ path: "project_revised.md", kind: "revision", proposalId }]);
    expect(await world.db.proposal.count({ where: { path: "project_revised.md" } })).toBe(1);
    const proposal = await world.db.proposal.findUniqueOrThrow({ where: { id: proposalId } });
    expect(proposal.revision).toBe(2);
    const latest = await world.db.proposalRevision.findFirstOrThrow({ where: { proposalId, revision: 2 } });
    expect(latest.content).toContain("90 seconds");
    await approve(proposalId);
    const landed = await sync(omar);
    expect(landed.landed).toEqual(["project_revised.md"]);
    expect(await readTeam(omar, "project_revised.md")).toContain("90 seconds");
  });

  it("a change the server refuses is reported once, remembered with its reason, and not offered again", async () => {
    // A state naming a file version the store never had: deleting the file proposes a retirement the server refuses.
    const { state } = await readSyncState(omar.memoryDir);
    state!.files["project_ghost.md"] = { blob: "1".repeat(40), local: "2".repeat(40) };
    await saveSyncState(omar.memoryDir, state!);
    const first = await sync(omar);
    expect(first.refused).toMatchObject([{ path: "project_ghost.md", reason: expect.stringContaining("in the team store has this id") }]);
    const requestsBefore = world.requests.length;
    const second = await sync(omar);
    expect(second.refused).toEqual([]);
    expect(second.proposed).toEqual([]);
    expect(world.requests.slice(requestsBefore).filter((request) => request.method === "POST")).toEqual([]);
    const status = await world.teammem(["status", "--json", omar.checkout], { home: omar.home, cwd: world.root, token: world.tokens.omar! });
    expect(JSON.parse(status.stdout).refused).toMatchObject([{ path: "project_ghost.md", isRetirement: true, reason: expect.stringContaining("in the team store has this id") }]);
    const cleaned = (await readSyncState(omar.memoryDir)).state!;
    delete cleaned.files["project_ghost.md"];
    delete cleaned.refused["project_ghost.md"];
    await saveSyncState(omar.memoryDir, cleaned);
  });

  it("without a sync state: files equal to the store's are adopted silently; one that differs is proposed as an edit of the store's version; nothing is deleted", async () => {
    await sync(priya);
    const before = (await readSyncState(priya.memoryDir)).state!;
    const edited = Object.keys(before.files).find((file) => file !== "MEMORY.md")!;
    const storeText = (await readTeam(priya, edited))!;
    await writeFile(path.join(priya.teamDir, edited), storeText.replace("**Why:**", "**Why (edited):**"));
    const proposalsBefore = await world.db.proposal.count({ where: { proposerId: world.userIds.priya } });
    await rm(syncStateFile(priya.memoryDir));
    const report = await sync(priya);
    expect(report.mode).toBe("full");
    expect(report.stateProblem).toBe("no sync state yet");
    const entry = report.proposed.find((proposed) => proposed.path === edited);
    expect(entry).toMatchObject({ kind: "change", isAgainstStoreHead: true });
    // Her open proposals were forgotten with the state: their files are matched to them, never proposed a second time.
    expect(await world.db.proposal.count({ where: { proposerId: world.userIds.priya } })).toBe(proposalsBefore + 1);
    expect(report.pulled.removed).toEqual([]);
    const proposal = await world.db.proposal.findUniqueOrThrow({ where: { id: entry!.proposalId! } });
    expect(proposal.baseBlob).toBe(before.files[edited]!.blob);
    expect(await readTeam(priya, edited)).toContain("**Why (edited):**"); // waiting for review: not overwritten
    await world.db.proposal.update({ where: { id: proposal.id }, data: { state: "withdrawn" } });
  });

  it("status answers for another folder (DIR) and another project (--project)", async () => {
    const here = await world.teammem(["status", "--json", priya.checkout], { home: priya.home, cwd: world.root, token: world.tokens.priya! });
    expect(JSON.parse(here.stdout)).toMatchObject({ projectId: PROJECT, teamDir: priya.teamDir });
    const stranger = await world.makeMemberHome("stranger");
    const other = await world.teammem(["status", "--json", "--project", PROJECT], { home: stranger.home, cwd: stranger.checkout, token: world.tokens.priya! });
    const parsed = JSON.parse(other.stdout);
    expect(parsed).toMatchObject({ projectId: PROJECT, syncedCommit: null, serverProblem: null });
    expect(parsed.storeGained.changed).toBeGreaterThan(0);
  });

  it("a file recorded by the last sync is not read again while its size, mtime and inode hold; a changed one is", async () => {
    const { scanTeamDir, keepTrustworthy } = await import("@/lib/sync/scan-team-dir");
    const folder = path.join(world.root, "stat-cache");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "project_old.md"), memory("Old", "Written long ago."));
    await writeFile(path.join(folder, "project_new.md"), memory("New", "Written just now."));
    const longAgo = new Date(Date.now() - 60_000);
    const { utimes } = await import("node:fs/promises");
    await utimes(path.join(folder, "project_old.md"), longAgo, longAgo);
    const first = await scanTeamDir(folder);
    const records = keepTrustworthy(first.seen, first.startedAtMs);
    expect(Object.keys(records)).toEqual(["project_old.md"]); // the fresh file's mtime is racy: not kept
    const second = await scanTeamDir(folder, records);
    expect(second.files.get("project_old.md")!.content).toBeNull(); // trusted, not read
    expect(second.files.get("project_new.md")!.content).toContain("Written just now.");
    await writeFile(path.join(folder, "project_old.md"), memory("Old", "Changed since, and longer than before."));
    await utimes(path.join(folder, "project_old.md"), longAgo, longAgo);
    const third = await scanTeamDir(folder, records);
    expect(third.files.get("project_old.md")!.content).toContain("Changed since");
    expect(third.files.get("project_old.md")!.hash).not.toBe(records["project_old.md"]!.hash);
  });
});
