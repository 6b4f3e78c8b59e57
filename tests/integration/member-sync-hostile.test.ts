import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, symlink, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { approveAs, memoryText, readTeamFile, writeTeamFile as writeTeamFileIn } from "../helpers/team-files";
import { PROJECT, startSyncWorld } from "../helpers/member-sync-world";
import { privateMemoryDir, teamMemoryDir } from "@/lib/memdir/paths";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { runSync } from "@/lib/sync/run-sync";
import { readSyncHead } from "@/lib/sync/read-sync-head";
import { readSyncState } from "@/lib/sync/sync-state";
import type { SyncReport } from "@/lib/sync/sync-report";

/**
 * Member sync against hostile input: hand-edited or foreign sync states, folders that link out of
 * team/, a team/ that is a file, many waiting proposals, `teammem propose` on files it must not
 * send, stale locks, store names this client does not write. Each case runs through `teammem`
 * processes (or runSync) against the real server world (tests/helpers/member-sync-world.ts); the
 * files outside team/ and the server's request log are the evidence.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
type User = "omar" | "priya" | "lena";
type Member = { user: User; home: string; checkout: string; memoryDir: string; teamDir: string; token: string };
let unique = 0;

beforeAll(async () => {
  ensureCompiledCli();
  world = await startSyncWorld();
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

describe("teammem sync against hostile input", () => {
  it("a hand-edited sync state naming ../../../../victim.md is damaged: the file outside team/ is untouched and the sync completes", async () => {
    const member = await makeMember("hostile-state", "omar");
    await sync(member);
    await writeTeamFile(member, "project_hostile_state.md", memory("Hostile state", "Proposed, then rejected."));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await rejectProposal(world.config, world.db, { proposalId, actorId: world.userIds.lena, reason: "not needed" });

    const hostile = "../../../../victim.md";
    const victim = path.resolve(member.teamDir, hostile);
    expect(path.relative(member.memoryDir, victim).startsWith("..")).toBe(true); // outside the memory directory
    await writeFile(victim, "precious\n");
    // The rejected proposal's entry now names the outside file: the old client deleted it when settling.
    await editState(member, (state) => {
      const pending = state.pending as Record<string, Record<string, unknown>>;
      pending[hostile] = { ...pending["project_hostile_state.md"]!, isRetirement: true };
      delete pending["project_hostile_state.md"];
    });
    const cli = await teammem(member, ["sync", "--json"]);
    expect(await readFile(victim, "utf8").catch(() => null)).toBe("precious\n");
    expect(cli.stderr).toBe("");
    expect([0, 1]).toContain(cli.code);
    const report = JSON.parse(cli.stdout) as SyncReport;
    expect(report.stateProblem).toBe("the sync state file is damaged");
    expect(report.head).toMatch(/^[0-9a-f]{40}$/);
    expect(await readFile(stateFile(member), "utf8")).not.toContain("victim.md");

    // The same name in `files` or `tombstones` makes the state damaged too.
    const variants: ((state: Record<string, unknown>) => void)[] = [
      (state) => void (state.files as unknown[][]).push([hostile, "1".repeat(40)]),
      (state) => void ((state.tombstones as Record<string, unknown>)[hostile] = { deletedAt: new Date().toISOString(), blob: "3".repeat(40) }),
    ];
    for (const variant of variants) {
      await editState(member, variant);
      const again = await sync(member);
      expect(again.stateProblem).toBe("the sync state file is damaged");
      expect(again.head).toBe(report.head);
      expect(await readFile(victim, "utf8")).toBe("precious\n");
    }
  });

  it("a subfolder of team/ linking outside: the other files are written, the linked one is kept with the reason, nothing is written outside, and it comes once the link is a folder", async () => {
    const member = await makeMember("linked-folder", "priya");
    const author = await makeMember("linked-folder-author", "omar");
    await sync(member); // her state names the head before the new files
    await sync(author);
    await writeTeamFile(author, "payments/project_linked_target.md", memory("Linked target", "Refunds settle in two days."));
    await writeTeamFile(author, "project_beside_link.md", memory("Beside link", "Invoices go out on the first."));
    const proposed = (await sync(author)).proposed;
    expect(proposed.map((entry) => entry.path).sort()).toEqual(["payments/project_linked_target.md", "project_beside_link.md"]);
    for (const entry of proposed) await approve(entry.proposalId!);

    const outside = path.join(world.root, "linked-folder-outside");
    await mkdir(outside, { recursive: true });
    await symlink(outside, path.join(member.teamDir, "payments"));
    const cli = await teammem(member, ["sync", "--json"]);
    expect(cli.code).toBe(1); // needs attention
    const report = JSON.parse(cli.stdout) as SyncReport;
    expect(await readTeam(member, "project_beside_link.md")).toContain("Invoices go out on the first.");
    expect(await readTeam(member, "MEMORY.md")).toContain("project_beside_link.md");
    expect(report.kept).toContainEqual({ path: "payments/project_linked_target.md", reason: expect.stringMatching(/link/) });
    expect(report.pulled.added).not.toContain("payments/project_linked_target.md"); // refused, so not reported as added too
    expect(await readdir(outside)).toEqual([]);
    // The store's head was not recorded while a file was refused: the next sync asks for it again.
    expect((await readSyncState(member.memoryDir)).state!.syncedCommit).not.toBe(report.head);

    await unlink(path.join(member.teamDir, "payments"));
    await mkdir(path.join(member.teamDir, "payments"));
    const fixed = await sync(member);
    expect(fixed.pulled.added).toContain("payments/project_linked_target.md");
    expect(await readTeam(member, "payments/project_linked_target.md")).toContain("Refunds settle in two days.");
    expect((await readSyncState(member.memoryDir)).state!.syncedCommit).toBe(fixed.head);
    expect(await readdir(outside)).toEqual([]);
  });

  it("a synced subfolder of team/ moved away and linked back: its files are not retired (sync and status), only the link is listed", async () => {
    const member = await makeMember("relinked-folder", "priya");
    const author = await makeMember("relinked-folder-author", "omar");
    await sync(author);
    await writeTeamFile(author, "ops/runbook_relinked.md", memory("Relinked runbook", "Restart the worker with the ops script."));
    for (const entry of (await sync(author)).proposed) await approve(entry.proposalId!);
    await sync(member);
    expect(await readTeam(member, "ops/runbook_relinked.md")).toContain("Restart the worker");

    const elsewhere = path.join(world.root, "relinked-ops");
    await rename(path.join(member.teamDir, "ops"), elsewhere);
    await symlink(elsewhere, path.join(member.teamDir, "ops"));
    const status = await teammem(member, ["status"]);
    expect(status.stdout).not.toMatch(/deleted\s+ops\/runbook_relinked\.md/);
    const report = await sync(member);
    expect(report.proposed).toEqual([]);
    expect(report.skipped.map((entry) => entry.path)).toContain("ops");
    expect(await readFile(path.join(elsewhere, "runbook_relinked.md"), "utf8")).toContain("Restart the worker");
  });

  it("a first sync while Claude Code saves a team memory: the saved file stays, the rest arrives whole, and the next sync proposes the saved one against the store's", async () => {
    const author = await makeMember("first-pull-author", "omar");
    await sync(author);
    const storeFiles = (await readdir(author.teamDir)).filter((name) => name.endsWith(".md") && name !== "MEMORY.md").sort();
    const contested = storeFiles.at(-1)!;
    const savedMeanwhile = memory("Saved meanwhile", "Claude Code wrote this while the first sync ran.");

    const member = await makeMember("first-pull-race", "priya");
    await expect(stat(member.teamDir)).rejects.toThrow(); // a first sync: team/ does not exist yet
    const saving = onFirstWrite(() => {
      mkdirSync(member.teamDir, { recursive: true });
      writeFileSync(path.join(member.teamDir, contested), savedMeanwhile);
    });
    const report = await runSync({ ...syncOptions(member), onProgress: saving.onProgress });
    expect(saving.hasRun()).toBe(true);
    expect(report.kept).toContainEqual({ path: contested, reason: expect.stringMatching(/appeared in your team\/ folder during the sync/) });
    expect(report.pulled.added).not.toContain(contested);
    expect(await readTeam(member, contested)).toBe(savedMeanwhile);
    for (const name of storeFiles.slice(0, -1)) expect(await readTeam(member, name)).toBe(await readTeam(author, name));
    expect(await readTeam(member, "MEMORY.md")).toBe(await readTeam(author, "MEMORY.md"));
    expect((await readdir(path.dirname(member.memoryDir))).filter((name) => name.includes("teammem-pull"))).toEqual([]);

    const next = await sync(member);
    expect(next.proposed).toContainEqual(expect.objectContaining({ path: contested, kind: "change" }));
    expect(await readTeam(member, contested)).toBe(savedMeanwhile);
  });

  it("a file saved in team/ while a sync runs is never replaced by the store's version: it stays, is reported, and the next sync proposes it", async () => {
    const outside = outsideClone("saved-during-sync-writer");
    await writeFile(path.join(outside.folder, "project_race_a.md"), memory("Race A", "First version of A."));
    await writeFile(path.join(outside.folder, "project_race_b.md"), memory("Race B", "First version of B."));
    await outside.push("Two memories from outside");
    const member = await makeMember("saved-during-sync", "priya");
    await sync(member);
    expect(await readTeam(member, "project_race_b.md")).toContain("First version of B.");

    await writeFile(path.join(outside.folder, "project_race_a.md"), memory("Race A", "Second version of A."));
    await writeFile(path.join(outside.folder, "project_race_b.md"), memory("Race B", "Second version of B."));
    await writeFile(path.join(outside.folder, "project_race_c.md"), memory("Race C", "The store's C."));
    await outside.push("Both changed, C added");
    const editedB = memory("Race B", "The member's own edit of B, saved while the sync ran.");
    const savedC = memory("Race C", "The member's own C, saved while the sync ran.");
    const saving = onFirstWrite(() => {
      writeFileSync(path.join(member.teamDir, "project_race_b.md"), editedB);
      writeFileSync(path.join(member.teamDir, "project_race_c.md"), savedC);
    });
    const report = await runSync({ ...syncOptions(member), onProgress: saving.onProgress });
    expect(saving.hasRun()).toBe(true);
    expect(await readTeam(member, "project_race_a.md")).toContain("Second version of A.");
    expect(await readTeam(member, "project_race_b.md")).toBe(editedB);
    expect(await readTeam(member, "project_race_c.md")).toBe(savedC);
    for (const file of ["project_race_b.md", "project_race_c.md"]) expect(report.kept).toContainEqual({ path: file, reason: expect.stringMatching(/saved while the sync ran/) });

    const next = await sync(member);
    expect(next.proposed).toEqual(expect.arrayContaining([expect.objectContaining({ path: "project_race_b.md", kind: "change" }), expect.objectContaining({ path: "project_race_c.md" })]));
    expect(await readTeam(member, "project_race_b.md")).toBe(editedB);
  });

  it("a team/ that is a regular file: sync exits non-zero with one line saying it is not a folder, and nothing changes", async () => {
    const member = await makeMember("team-is-file", "lena");
    await mkdir(member.memoryDir, { recursive: true });
    await writeFile(member.teamDir, "not a folder\n");
    const requestsBefore = world.requests.length;
    const cli = await teammem(member, ["sync"]);
    expect(cli.code).not.toBe(0);
    expect(cli.stdout).toBe("");
    expect(cli.stderr.trim().split("\n")).toHaveLength(1);
    expect(cli.stderr).toMatch(/is not a folder/);
    expect(cli.stderr).toContain(member.teamDir);
    expect(await readFile(member.teamDir, "utf8")).toBe("not a folder\n");
    expect(await exists(stateFile(member))).toBe(false);
    expect(await exists(lockFile(member))).toBe(false);
    expect(world.requests.slice(requestsBefore).filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("more than 200 waiting proposals: sync and status still work, and a late rejection is reported within two syncs", async () => {
    const member = await makeMember("many-pending", "priya");
    await sync(member);
    const count = 205;
    for (let index = 0; index < count; index++) {
      const name = `project_many_${String(index).padStart(3, "0")}.md`;
      await writeTeamFile(member, name, memory(`Many ${index}`, `Rate limit for partner ${index} is ${index * 7 + 3} calls a minute.`, `Partner ${index} rate limit`));
    }
    const created = await sync(member);
    expect(created.proposed).toHaveLength(count);
    const ids = created.proposed.map((entry) => entry.proposalId!).sort();
    expect(new Set(ids).size).toBe(count);
    const last = created.proposed.find((entry) => entry.proposalId === ids[count - 1])!;
    await rejectProposal(world.config, world.db, { proposalId: last.proposalId!, actorId: world.userIds.lena, reason: "one is enough" });

    const first = await teammem(member, ["sync", "--json"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(1); // waiting proposals need attention
    const firstReport = JSON.parse(first.stdout) as SyncReport;
    const status = await teammem(member, ["status", "--json"]);
    expect(status.stderr).toBe("");
    expect([0, 1]).toContain(status.code);
    expect(JSON.parse(status.stdout)).toMatchObject({ projectId: PROJECT, serverProblem: null });

    const reports = [firstReport];
    if (!firstReport.turnedDown.some((entry) => entry.path === last.path)) reports.push(await sync(member));
    const turnedDown = reports.flatMap((report) => report.turnedDown);
    expect(turnedDown).toContainEqual(expect.objectContaining({ path: last.path, state: "rejected", reason: "one is enough" }));
    expect(reports.at(-1)!.waiting).toHaveLength(count - 1);
    expect(await readTeam(member, last.path)).toBeNull(); // a rejected new file leaves team/ (kept aside)
  });

  it("teammem propose refuses a file in team/ (pointing to teammem sync) and a non-.md file, before anything is sent", async () => {
    const member = await makeMember("propose-refused", "omar");
    await sync(member);
    const inTeamMarker = `In-team marker ${Date.now()}`;
    const inTeam = path.join(member.teamDir, "project_propose_in_team.md");
    await writeFile(inTeam, memory("Propose in team", inTeamMarker));
    const before = world.requests.length;
    const refused = await teammem(member, ["propose", inTeam]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("teammem sync");
    const sent = world.requests.slice(before);
    expect(sent.filter((request) => request.method === "POST" && request.url.includes("/proposals"))).toEqual([]);
    expect(sent.filter((request) => (request.url + request.body).includes(inTeamMarker))).toEqual([]);
    await rm(inTeam);

    const notesMarker = `Notes marker ${Date.now()}`;
    const notes = path.join(member.memoryDir, "notes.txt");
    await writeFile(notes, memory("Notes", notesMarker));
    const beforeNotes = world.requests.length;
    const notMemory = await teammem(member, ["propose", notes]);
    expect(notMemory.code).not.toBe(0);
    expect(notMemory.stderr).toMatch(/not a memory file/);
    const sentNotes = world.requests.slice(beforeNotes);
    expect(sentNotes.filter((request) => (request.url + request.body).includes(notesMarker))).toEqual([]);
    expect(sentNotes.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("a credential in a team file's name never leaves the machine: sync lists it as skipped and sends nothing naming it", async () => {
    const member = await makeMember("credential-name", "priya");
    await sync(member);
    // A GitHub token shape after the usual `reference_` prefix (the body scanner alone reads `_ghp_…` as part of a longer word).
    const token = `ghp_${"A1b2C3d4E5".repeat(3)}x9Y8z7`;
    const name = `reference_${token}.md`;
    await writeTeamFile(member, name, memory("Named after a token", "The body is harmless."));
    const before = world.requests.length;
    const report = await sync(member);
    expect(report.skipped).toContainEqual({ path: name, reason: expect.stringMatching(/^invalid name: holds what looks like a credential/) });
    expect(report.proposed).toEqual([]);
    expect(world.requests.slice(before).filter((request) => (request.url + request.body).includes(token))).toEqual([]);
  });

  it("a team/MEMORY.md replaced by a folder holding a memory: sync lists it as skipped with the reason and proposes nothing", async () => {
    const member = await makeMember("index-folder", "omar");
    await sync(member);
    await rm(path.join(member.teamDir, "MEMORY.md"));
    await writeTeamFile(member, "MEMORY.md/project_ledger.md", memory("Ledger", "Inside a folder named like the index."));
    const report = await sync(member);
    expect(report.skipped).toContainEqual({ path: "MEMORY.md/project_ledger.md", reason: expect.stringMatching(/folder may not be named MEMORY\.md/) });
    expect(report.proposed).toEqual([]);
  });

  it("a stale sync lock (empty and 10 s old, or a live pid untouched for 2 minutes) does not block; a fresh live lock does, naming the file", async () => {
    const member = await makeMember("stale-lock", "omar");
    await sync(member);
    const lock = lockFile(member);

    await writeFile(lock, "");
    await setAge(lock, 10_000);
    await expect(sync(member, { lockWaitMs: 300 })).resolves.toMatchObject({ projectId: PROJECT });
    expect(await exists(lock)).toBe(false);

    await writeFile(lock, String(process.pid)); // a live process, but not a sync
    await setAge(lock, 120_000);
    await expect(sync(member, { lockWaitMs: 300 })).resolves.toMatchObject({ projectId: PROJECT });
    expect(await exists(lock)).toBe(false);

    await writeFile(lock, String(process.pid));
    await expect(sync(member, { lockWaitMs: 300 })).rejects.toThrow(/sync already running/);
    await expect(sync(member, { lockWaitMs: 300 })).rejects.toThrow(lock);
    expect(await readFile(lock, "utf8")).toBe(String(process.pid)); // not taken over
    await rm(lock);
  });

  it("a sync state for another project is moved aside untouched; one of a newer format (9) stops the sync and is left as it is", async () => {
    const member = await makeMember("foreign-state", "omar");
    await sync(member);
    await editState(member, (state) => void (state.projectId = "other-project"));
    const original = await readFile(stateFile(member), "utf8");
    // While team/ holds the other project's memories, syncing it with this one is refused: each would be proposed here.
    const refusedSwitch = await teammem(member, ["sync", "--project", PROJECT]);
    expect(refusedSwitch.code).toBe(2);
    expect(refusedSwitch.stderr).toMatch(/holds the memories of project other-project/);
    expect(await readFile(stateFile(member), "utf8")).toBe(original);
    await rm(member.teamDir, { recursive: true });
    const cli = await teammem(member, ["sync", "--json", "--project", PROJECT]);
    expect([0, 1]).toContain(cli.code);
    expect((JSON.parse(cli.stdout) as SyncReport).stateProblem).toMatch(/other-project/);
    const asidePattern = new RegExp(`^${escapeRegExp(path.basename(member.memoryDir))}\\.teammem-sync\\.other-project\\.\\d+\\.json$`);
    const aside = (await readdir(path.dirname(member.memoryDir))).filter((name) => asidePattern.test(name));
    expect(aside).toHaveLength(1);
    expect(await readFile(path.join(path.dirname(member.memoryDir), aside[0]!), "utf8")).toBe(original);
    expect((await readSyncState(member.memoryDir)).state).toMatchObject({ projectId: PROJECT });

    await editState(member, (state) => void (state.version = 9));
    const newer = await readFile(stateFile(member), "utf8");
    const refused = await teammem(member, ["sync"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/update teammem/);
    expect(await readFile(stateFile(member), "utf8")).toBe(newer);
  });

  it("a store file pushed from outside under a hidden folder is not written into team/ and is listed as skipped; the rest syncs", async () => {
    const member = await makeMember("hidden-store-name", "priya");
    await sync(member);
    const outside = outsideClone("hidden-clone");
    await mkdir(path.join(outside.folder, ".hidden"), { recursive: true });
    await writeFile(path.join(outside.folder, ".hidden", "project_hidden.md"), memory("Hidden", "Pushed into a hidden folder."));
    await writeFile(path.join(outside.folder, "project_pushed_beside_hidden.md"), memory("Beside hidden", "Pushed beside the hidden folder."));
    await outside.push("outside push");

    const cli = await teammem(member, ["sync", "--json"]);
    expect(cli.code).toBe(1); // a skipped file needs attention
    const report = JSON.parse(cli.stdout) as SyncReport;
    expect(report.skipped).toContainEqual({ path: ".hidden/project_hidden.md", reason: expect.stringMatching(/starts with a dot/) });
    expect(await exists(path.join(member.teamDir, ".hidden"))).toBe(false);
    expect(report.pulled.added).toContain("project_pushed_beside_hidden.md");
    expect(await readTeam(member, "project_pushed_beside_hidden.md")).toContain("Pushed beside the hidden folder.");
  });

  it("two store files differing in letter case only (pushed from outside): the first is written, the other is reported every sync, and a rename by case arrives whole", async () => {
    const member = await makeMember("case-twins", "omar");
    await sync(member);
    const { folder, push: outsidePush } = outsideClone("twins-clone");
    await writeFile(path.join(folder, "project_Twin_Cutoff.md"), memory("Twin upper", "The upper-case twin."));
    await writeFile(path.join(folder, "project_twin_cutoff.md"), memory("Twin lower", "The lower-case twin."));
    await outsidePush("twins");

    for (let run = 0; run < 2; run++) {
      const report = await sync(member);
      expect(report.kept).toContainEqual({ path: "project_twin_cutoff.md", reason: expect.stringContaining("project_Twin_Cutoff.md is in your team/ folder, and this name differs from it in letter case only") });
    }
    expect(await readTeam(member, "project_Twin_Cutoff.md")).toContain("The upper-case twin.");
    expect(await exists(path.join(member.teamDir, "project_twin_cutoff.md"))).toBe(false);
    const cli = await teammem(member, ["sync", "--json"]);
    expect(cli.code).toBe(1); // needs attention until a lead retires one
    // The head is held all the same (the prompt hook tells the server what team/ holds by it).
    const head = execFileSync("git", ["-C", folder, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    expect((JSON.parse(cli.stdout) as { head: string }).head).toBe(head);
    expect((await readSyncHead(member.memoryDir))?.syncedCommit).toBe(head);

    // A lead retires the lower-case twin, then renames the other by case (retire, then add): one sync sees both.
    await rm(path.join(folder, "project_twin_cutoff.md"));
    await outsidePush("retire the twin");
    await rm(path.join(folder, "project_Twin_Cutoff.md"));
    await writeFile(path.join(folder, "project_twin_cutoff.md"), memory("Twin renamed", "Renamed by case."));
    await outsidePush("rename by case");
    const renamed = await sync(member);
    expect(renamed.kept).toEqual([]);
    expect(renamed.pulled.removed).toContain("project_Twin_Cutoff.md");
    expect(await readTeam(member, "project_twin_cutoff.md")).toContain("Renamed by case.");
    expect(await exists(path.join(member.teamDir, "project_Twin_Cutoff.md"))).toBe(false);
    expect((await teammem(member, ["sync", "--json"])).code).toBe(0);
  });
});

/** A member's machine (its own home and checkout) signed in as one of the demo users. */
async function makeMember(homeName: string, user: User): Promise<Member> {
  const { home, checkout } = await world.makeMemberHome(homeName);
  const memoryDir = privateMemoryDir(path.join(home, ".claude"), checkout);
  return { user, home, checkout, memoryDir, teamDir: teamMemoryDir(memoryDir), token: world.tokens[user]! };
}

function sync(member: Member, options: { lockWaitMs?: number } = {}): Promise<SyncReport> {
  return runSync(syncOptions(member, options));
}

/** Claude Code (or the member) saving files while the sync runs: `save` runs once, after the sync's first write. */
function onFirstWrite(save: () => void): { onProgress: () => void; hasRun: () => boolean } {
  let hasRun = false;
  return {
    onProgress: () => {
      if (hasRun) return;
      hasRun = true;
      save();
    },
    hasRun: () => hasRun,
  };
}

function syncOptions(member: Member, options: { lockWaitMs?: number } = {}): Parameters<typeof runSync>[0] {
  return {
    config: { claudeCodeEnv: {}, homeDir: member.home, faultPoint: null },
    target: { server: world.base(), token: member.token },
    cwd: member.checkout,
    projectId: null,
    isDryRun: false,
    clientVersion: "test",
    lockWaitMs: options.lockWaitMs ?? 1_000,
  };
}

/** A clone of the store written by a script around review; `push` commits everything and pushes it to main, and the server fetches. */
function outsideClone(name: string): { folder: string; push: (message: string) => Promise<void> } {
  const clone = path.join(world.root, name);
  execFileSync("git", ["clone", "-q", world.config.storeRemote, clone]);
  return {
    folder: path.join(clone, "projects", PROJECT),
    push: async (message) => {
      execFileSync("git", ["-C", clone, "add", "-A"]);
      execFileSync("git", ["-C", clone, "-c", "user.name=Outside Script", "-c", "user.email=script@example.invalid", "commit", "-qm", message]);
      execFileSync("git", ["-C", clone, "push", "-q", "origin", "HEAD:main"]);
      const { refreshStore } = await import("@/lib/store/read-store");
      await refreshStore(world.config, { force: true });
    },
  };
}

function teammem(member: Member, args: string[]) {
  return world.teammem(args, { home: member.home, cwd: member.checkout, token: member.token });
}

/** Rewrites the saved sync state by hand, as a member (or something planted) could. */
async function editState(member: Member, edit: (state: Record<string, unknown>) => void): Promise<void> {
  const state = JSON.parse(await readFile(stateFile(member), "utf8")) as Record<string, unknown>;
  edit(state);
  await writeFile(stateFile(member), JSON.stringify(state) + "\n");
}

const stateFile = (member: Member) => `${member.memoryDir}.teammem-sync.json`;
const lockFile = (member: Member) => `${member.memoryDir}.teammem-sync.lock`;

async function setAge(file: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await utimes(file, then, then);
}

const memory = (name: string, body: string, description = `Hostile-input decision ${++unique} about the checkout`) => memoryText(name, body, description);

const writeTeamFile = (member: Member, file: string, content: string) => writeTeamFileIn(member.teamDir, file, content);

const approve = (proposalId: string) => approveAs(world, world.userIds.lena, proposalId);

const readTeam = (member: Member, file: string) => readTeamFile(member.teamDir, file);
const exists = (file: string) => stat(file).then(() => true, () => false);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
