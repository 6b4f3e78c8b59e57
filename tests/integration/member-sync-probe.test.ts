import { execFileSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, realpath, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { approveAs, memoryText, readTeamFile, writeTeamFile as writeTeamFileIn } from "../helpers/team-files";
import { PROJECT, startSyncWorld } from "../helpers/member-sync-world";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { readSyncState } from "@/lib/sync/sync-state";
import type { SyncReport } from "@/lib/sync/sync-report";

/**
 * Member sync cases a black-box probe found wrong (a removal the disk refused, a team/ linking
 * out, a lost state beside a waiting retirement, a folder where the lock belongs, dry-run and
 * propose reports): each runs `teammem` (or runSync) against the real server world.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
type User = "omar" | "priya" | "lena";
type Member = Awaited<ReturnType<typeof world.makeMember>>;
let unique = 0;

beforeAll(async () => {
  ensureCompiledCli();
  world = await startSyncWorld();
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

describe("a removal this disk refused", () => {
  it("a store retirement that could not be removed (read-only team/) is removed by the next sync, never proposed back", async () => {
    const holder = await makeMember("refused-removal", "omar");
    const retirer = await makeMember("refused-removal-retirer", "priya");
    const file = "project_refused_removal.md";
    await sync(retirer);
    await writeTeamFile(retirer, file, memory("Refused removal", "Beta ships on Fridays."));
    await approve((await sync(retirer)).proposed[0]!.proposalId!);
    await sync(holder);
    expect(await readTeam(holder, file)).toContain("Beta ships on Fridays.");
    await rm(path.join(retirer.teamDir, file));
    await approve((await sync(retirer)).proposed[0]!.proposalId!);

    const refused = await withReadOnlyFolder(holder.teamDir, () => sync(holder));
    expect(refused.kept).toContainEqual({ path: file, reason: expect.stringMatching(/^the store retired it, but it cannot be removed here: .*; fix that and sync again$/) });
    expect(refused.kept.find((entry) => entry.path === file)!.reason).not.toContain("cannot be written");
    expect(await exists(path.join(holder.teamDir, file))).toBe(true);

    const next = await sync(holder);
    expect(next.proposed).toEqual([]);
    expect(next.pulled.removed).toContain(file);
    expect(await exists(path.join(holder.teamDir, file))).toBe(false);
    expect(await world.db.proposal.count({ where: { path: file, proposerId: world.userIds.omar } })).toBe(0);
  });
});

describe("a team/ that is not a folder of the memory directory", () => {
  it("team/ as a link out of the memory directory: one line naming it and what to do, exit 2, nothing written there (sync and status)", async () => {
    const member = await makeMember("team-link-out", "priya");
    const author = await makeMember("team-link-out-author", "omar");
    await sync(author);
    await writeTeamFile(author, "project_team_link_out.md", memory("Team link out", "Alpha deploys on Mondays."));
    await approve((await sync(author)).proposed[0]!.proposalId!);

    const outside = path.join(world.root, "team-link-out-folder");
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, "notes.txt"), "unrelated\n");
    await sync(member); // synced before: the state names its files, so status reads team/ too
    await rename(member.teamDir, `${member.teamDir}-moved`);
    await symlink(outside, member.teamDir);
    const stateBefore = await readFile(`${member.memoryDir}.teammem-sync.json`, "utf8");
    const expected = `${member.teamDir} is a link to ${await realpath(outside)}, outside the memory directory: teammem does not sync through it. Replace the link with a folder`;
    for (const command of ["sync", "status"]) {
      const cli = await teammem(member, [command]);
      expect(cli.code).toBe(2);
      expect(cli.stderr.trim().split("\n")).toHaveLength(1);
      expect(cli.stderr).toContain(expected);
    }
    const quiet = await teammem(member, ["sync", "--quiet"]);
    expect(quiet.code).toBe(0); // the session-start hook says it in one line, never fails the session
    expect(quiet.stdout).toContain(expected);
    expect(await readdir(outside)).toEqual(["notes.txt"]);
    expect(await readFile(`${member.memoryDir}.teammem-sync.json`, "utf8")).toBe(stateBefore);
  });
});

describe("a lost sync state beside a waiting retirement", () => {
  it("the deleted file is not written back while its retirement waits, status lists it, and a rejection brings it back", async () => {
    const member = await makeMember("lost-state-retirement", "omar");
    const file = "project_lost_state_retirement.md";
    await sync(member);
    await writeTeamFile(member, file, memory("Lost state retirement", "Beta owns the invoices table."));
    await approve((await sync(member)).proposed[0]!.proposalId!);
    await sync(member);
    await rm(path.join(member.teamDir, file));
    const retirement = (await sync(member)).proposed[0]!;
    expect(retirement).toMatchObject({ path: file, kind: "retirement" });
    await rm(`${member.memoryDir}.teammem-sync.json`);

    const again = await sync(member);
    expect(again.pulled.added).not.toContain(file);
    expect(again.proposed).toEqual([]);
    expect(again.waiting).toContainEqual({ path: file, state: "submitted", storeChangedToo: false });
    expect(await exists(path.join(member.teamDir, file))).toBe(false);
    const status = await teammem(member, ["status", "--json"]);
    expect(JSON.parse(status.stdout).proposals).toContainEqual(expect.objectContaining({ path: file, proposalId: retirement.proposalId, isRetirement: true }));

    await rejectProposal(world.config, world.db, { proposalId: retirement.proposalId!, actorId: world.userIds.lena, reason: "still used" });
    const settled = await sync(member);
    expect(settled.turnedDown).toContainEqual(expect.objectContaining({ path: file, state: "rejected", restored: true }));
    expect(await readTeam(member, file)).toContain("Beta owns the invoices table.");
  });
});

describe("a folder where the sync lock belongs", () => {
  it("sync names it and says what to do, in one line (exit 2; --quiet exit 0), and leaves it as it is", async () => {
    const member = await makeMember("lock-folder", "priya");
    await sync(member);
    const lock = `${member.memoryDir}.teammem-sync.lock`;
    await mkdir(lock);
    await writeFile(path.join(lock, "left-over"), "kept\n");
    const expected = `${lock} is a folder (or other non-file) where teammem keeps its sync lock file: move it aside`;
    const cli = await teammem(member, ["sync"]);
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim().split("\n")).toEqual([`teammem sync: ${expected} (or delete it if it holds nothing you need) and sync again.`]);
    const quiet = await teammem(member, ["sync", "--quiet"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain(expected);
    expect(quiet.stdout + quiet.stderr).not.toContain("unexpected error");
    expect(await readdir(lock)).toEqual(["left-over"]);
  });
});

describe("sync --dry-run", () => {
  it("says what it would propose, never that something waits in an outbox it did not fill", async () => {
    const member = await makeMember("dry-run-plan", "omar");
    await sync(member);
    await writeTeamFile(member, "project_dry_run_plan.md", memory("Dry run plan", "Gamma rotates keys monthly."));
    const human = await teammem(member, ["sync", "--dry-run"]);
    expect(human.code).toBe(1);
    expect(human.stdout.split("\n")[0]).toMatch(/^Plan: \S+ with acme-checkout at [0-9a-f]{8}\.$/);
    expect(human.stdout).toContain("would propose   project_dry_run_plan.md (new)");
    expect(human.stdout).not.toContain("outbox");
    expect(human.stdout.trim().split("\n").at(-1)).toBe("team memory needs attention (teammem status): 1 proposed.");
    const json = JSON.parse((await teammem(member, ["sync", "--dry-run", "--json"])).stdout) as SyncReport;
    expect(json).toMatchObject({ isDryRun: true, outbox: 0, proposed: [{ path: "project_dry_run_plan.md", kind: "new", proposalId: null }] });

    // Queued while offline: a dry run lists it as what it would send, and leaves it queued.
    world.setOffline(true);
    const offline = await teammem(member, ["sync"]).finally(() => world.setOffline(false));
    expect(offline.stdout.split("\n")[0]).toMatch(/^Not synced \(the server could not be reached\): /);
    const queued = await sync(member, { isDryRun: true });
    expect(queued).toMatchObject({ outbox: 0, proposed: [{ path: "project_dry_run_plan.md", kind: "new", proposalId: null }] });
    expect((await readSyncState(member.memoryDir)).state!.outbox).toHaveLength(1);
    expect(await world.db.proposal.count({ where: { path: "project_dry_run_plan.md" } })).toBe(0);
  });
});

describe("teammem propose, run again", () => {
  it("the same text while it waits: nothing sent, the waiting proposal's page, exit 0; other text is a new proposal", async () => {
    const member = await makeMember("propose-twice", "priya");
    await sync(member);
    const file = path.join(member.memoryDir, "project_propose_twice.md");
    await writeFile(file, memory("Propose twice", "Delta retries webhooks three times."));
    const first = await teammem(member, ["propose", file]);
    expect(first.code).toBe(0);
    const url = first.stdout.match(/https?:\/\/\S+\/review\/\S+/)![0];

    const second = await teammem(member, ["propose", file]);
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(`project_propose_twice.md already waits for review in ${PROJECT} with this text: ${url} (nothing was sent again).`);
    const json = JSON.parse((await teammem(member, ["propose", file, "--json"])).stdout) as { url: string; isAlreadyWaiting: boolean };
    expect(json).toMatchObject({ url, isAlreadyWaiting: true });
    expect(await world.db.proposal.count({ where: { path: "project_propose_twice.md" } })).toBe(1);

    await writeFile(file, memory("Propose twice", "Delta retries webhooks five times."));
    const edited = await teammem(member, ["propose", file]);
    expect(edited.stdout).toMatch(/^Proposed project_propose_twice.md/);
    expect(await world.db.proposal.count({ where: { path: "project_propose_twice.md" } })).toBe(2);
  });
});

describe("teammem sync DIR that is not there", () => {
  it("says the folder does not exist (or is a file), exit 2, instead of 'not a git checkout'", async () => {
    const member = await makeMember("missing-dir", "priya");
    const missing = path.join(member.home, "no-such-checkout");
    const cli = await teammem(member, ["sync", missing]);
    expect([cli.code, cli.stderr.trim()]).toEqual([2, `teammem sync: ${missing} does not exist: give the folder of your checkout (or run in it).`]);
    const file = path.join(member.home, "a-file");
    await writeFile(file, "x");
    expect((await teammem(member, ["status", file])).stderr).toContain(`${file} is not a folder`);
  });
});

describe("teammem propose of a file too large for team sync", () => {
  it("says the file is larger than the limit, in a sentence, and sends nothing", async () => {
    const member = await makeMember("propose-huge", "priya");
    await sync(member);
    const file = path.join(member.memoryDir, "project_huge.md");
    await writeFile(file, memory("Huge", "x".repeat(260_000)));
    const before = await world.db.proposal.count();
    const cli = await teammem(member, ["propose", file]);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain(`${file} is larger than 250,000 bytes (Claude Code's team sync limit); nothing was sent.`);
    expect(await world.db.proposal.count()).toBe(before);
  });
});

describe("teammem sync --redact", () => {
  it("takes the name sync listed (relative to team/), prints one JSON document with --json, and shows only the changed line", async () => {
    const member = await makeMember("redact-json", "omar");
    await sync(member);
    const token = `ghp_${"Q7w8E9r0T1".repeat(3)}y2U3i4`;
    const before = "---\nname: Deploy bot\ndescription: How the deploy bot signs in\ntype: reference\n---\nThe bot signs in with " + token + " from the vault.\nRotate it monthly.\n";
    await writeTeamFile(member, "reference_bot.md", before);
    expect((await sync(member)).skipped).toContainEqual({ path: "reference_bot.md", reason: expect.stringContaining("teammem sync --redact FILE") });

    const shown = await teammem(member, ["sync", "--redact", "reference_bot.md", "--json"]);
    expect(shown.code).toBe(1);
    expect(shown.stdout).not.toContain(token);
    const plan = JSON.parse(shown.stdout) as { file: string; secrets: number; diff: string[]; isWritten: boolean; backup: string | null };
    expect(plan).toMatchObject({ file: path.join(member.teamDir, "reference_bot.md"), secrets: 1, isWritten: false, backup: null });
    expect(plan.diff.slice(2)).toEqual(["@@ -6,1 +6,1 @@", expect.stringMatching(/^-The bot signs in with ghp_.*… from the vault\.$|^-The bot signs in with .*ghp_/), expect.stringMatching(/^\+The bot signs in with \[REDACTED:[^\]]+\] from the vault\.$/)]);
    expect(await readTeam(member, "reference_bot.md")).toBe(before);

    const applied = JSON.parse((await teammem(member, ["sync", "--redact", "reference_bot.md", "--yes", "--json"])).stdout) as { isWritten: boolean; backup: string };
    expect(applied.isWritten).toBe(true);
    expect(await readTeam(member, "reference_bot.md")).toMatch(/signs in with \[REDACTED:[^\]]+\] from the vault/);

    const missing = await teammem(member, ["sync", "--redact", "reference_gone.md"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`teammem sync: reference_gone.md: cannot be read (tried ${path.join(member.checkout, "reference_gone.md")} and ${path.join(member.teamDir, "reference_gone.md")}).`);
  });
});

/**
 * Makes `folder` refuse new and removed entries while `work` runs: chmod 555 for a user; root
 * passes permission bits, so there it is the immutable attribute.
 */
async function withReadOnlyFolder<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const isRoot = process.getuid?.() === 0;
  if (isRoot) execFileSync("chattr", ["+i", folder]);
  else await chmod(folder, 0o555);
  try {
    return await work();
  } finally {
    if (isRoot) execFileSync("chattr", ["-i", folder]);
    else await chmod(folder, 0o755);
  }
}

/** A member's machine (its own home and checkout) signed in as one of the demo users. */
// The world's own member and in-process sync (member-sync-world.ts), with a member per account.
const makeMember = (homeName: string, user: User): Promise<Member> => world.makeMember(homeName, world.tokens[user]!);
const sync = (member: Member, options: { isDryRun?: boolean } = {}): Promise<SyncReport> => world.syncAs(member, options);

function teammem(member: Member, args: string[]) {
  return world.teammem(args, { home: member.home, cwd: member.checkout, token: member.token });
}

const memory = (name: string, body: string, description = `Probe follow-up decision ${++unique} about the checkout`) => memoryText(name, body, description);
const writeTeamFile = (member: Member, file: string, content: string) => writeTeamFileIn(member.teamDir, file, content);
const approve = (proposalId: string) => approveAs(world, world.userIds.lena, proposalId);
const readTeam = (member: Member, file: string) => readTeamFile(member.teamDir, file);
const exists = (file: string) => stat(file).then(() => true, () => false);
