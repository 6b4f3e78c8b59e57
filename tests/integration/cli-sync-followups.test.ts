import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT, startSyncWorld } from "../helpers/member-sync-world";
import { approveAs, memoryText, readTeamFile, writeTeamFile } from "../helpers/team-files";
import { createApiToken, revokeApiToken } from "@/lib/auth/manage-api-tokens";
import { removeFromProject, setProjectRole } from "@/lib/auth/manage-users";

/**
 * What a member notices through the CLI around `teammem sync`: the SessionStart hook in a
 * checkout whose access ended, `teammem status` with local changes not synced yet and with new
 * memories in the store, and `teammem propose` on a memory whose type hides a `user` memory.
 * One real server; each case has a member home and checkout of its own.
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
type MemberName = "omar" | "priya";
type Member = { name: MemberName; home: string; checkout: string; memoryDir: string; teamDir: string; token: string };
let homes = 0;
let unique = 0;

beforeAll(async () => {
  world = await startSyncWorld();
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

async function newMember(name: MemberName = "omar", token = world.tokens[name]!): Promise<Member> {
  return { name, ...(await world.makeMember(`followups-${++homes}`, token)) };
}

const sync = (member: Member) => world.syncAs(member);

const teammem = (member: Member, args: string[]) => world.teammem(args, { home: member.home, cwd: member.checkout, token: member.token });
const memory = (name: string, body: string) => memoryText(name, body, `Decision ${++unique} about ${name.toLowerCase()}`);
const approve = (proposalId: string) => approveAs(world, world.userIds.lena, proposalId);

/** A token of the member's own, so revoking it leaves the other tests' tokens alone. */
async function ownToken(name: MemberName): Promise<{ token: string; revoke: () => Promise<unknown> }> {
  const user = await world.db.user.findUniqueOrThrow({ where: { id: world.userIds[name] } });
  const caller = { userId: user.id, email: user.email, name: user.name, isAdmin: false, via: "session" as const, tokenProjectIds: null };
  const { token, summary } = await createApiToken(world.db, caller, { name: `followups ${++unique}`, projectIds: [PROJECT] });
  return { token, revoke: () => revokeApiToken(world.db, caller, summary.id) };
}

/** A memory the member proposes through sync and the lead approves: it lands in the store. */
async function landMemory(member: Member, file: string, text: string): Promise<void> {
  await writeTeamFile(member.teamDir, file, text);
  const report = await sync(member);
  await approve(report.proposed.find((entry) => entry.path === file)!.proposalId!);
  await sync(member);
}

describe("teammem sync --quiet (the SessionStart hook) once the member's access ended", () => {
  it("says in one line, exit 0, that the token was revoked where this checkout synced before; stays silent where it never did", async () => {
    const { token, revoke } = await ownToken("omar");
    const synced = await newMember("omar", token);
    await sync(synced);
    const neverSynced = await newMember("omar", token);
    await revoke();

    const quiet = await teammem(synced, ["sync", "--quiet"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    const lines = quiet.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("This API token was revoked");
    expect(lines[0]).toContain("teammem login");

    expect(await teammem(neverSynced, ["sync", "--quiet"])).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("says in one line, exit 0, that the project is out of reach once the member was removed from it", async () => {
    const member = await newMember("priya");
    await sync(member);
    await removeFromProject(world.db, { projectId: PROJECT, userId: world.userIds.priya });
    try {
      const quiet = await teammem(member, ["sync", "--quiet"]);
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe("");
      const lines = quiet.stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`"${PROJECT}"`);
      expect(lines[0]).toContain("a lead of the project can add you back");
    } finally {
      await setProjectRole(world.db, { projectId: PROJECT, email: "priya@acme.example", role: "member" });
    }
  });
});

describe("teammem status with changes in team/ not synced yet", () => {
  it("lists files added, changed and deleted since the last sync and exits 1; after the sync they are proposals instead", async () => {
    const member = await newMember();
    await sync(member);
    expect((await teammem(member, ["status"])).code).toBe(0);
    const [changedFile, deletedFile] = ["project_wallet_launch.md", "reference_slack_channels.md"];
    const original = await readTeamFile(member.teamDir, changedFile);
    expect(original).not.toBeNull();
    expect(await readTeamFile(member.teamDir, deletedFile)).not.toBeNull();

    await writeTeamFile(member.teamDir, "project_unsynced.md", memory("Unsynced", "Written after the last sync."));
    await writeTeamFile(member.teamDir, changedFile, original!.replace(/\n$/, "\nOne more line.\n"));
    await rm(path.join(member.teamDir, deletedFile));
    // The store's index is written by sync, not by the member: an edit there is no local change.
    await writeFile(path.join(member.teamDir, "MEMORY.md"), "- edited by hand\n");

    const status = await teammem(member, ["status"]);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain("not yet synced: 3 file(s) changed here — run teammem sync");
    expect(status.stdout).toContain("added    project_unsynced.md");
    expect(status.stdout).toContain(`changed  ${changedFile}`);
    expect(status.stdout).toContain(`deleted  ${deletedFile}`);
    expect(status.stdout).not.toContain("MEMORY.md");
    const json = JSON.parse((await teammem(member, ["status", "--json"])).stdout);
    expect(json.local).toMatchObject({ added: ["project_unsynced.md"], changed: [changedFile], deleted: [deletedFile] });

    await sync(member);
    const after = await teammem(member, ["status"]);
    expect(after.stdout).not.toContain("not yet synced");
    expect(after.stdout).toContain("project_unsynced.md: submitted");
  });

  it("names a new file that cannot travel (a secret) instead of calling it unsynced", async () => {
    const member = await newMember();
    await sync(member);
    const token = ["ghp", "_", "K4nB6cD1fG5hJ0kS2aE4yR7mK2pQ9xL4vT8q"].join("");
    await writeTeamFile(member.teamDir, "project_ci.md", memory("CI", `The CI token is ${token}.`));
    const status = await teammem(member, ["status"]);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/stays here: project_ci\.md: holds a secret/);
    expect(status.stdout).not.toContain("not yet synced");
    expect(status.stdout).not.toContain(token);
  });
});

describe("teammem status on what the store gained", () => {
  it("counts memories, not the store's index MEMORY.md, wherever the index sorts among them", async () => {
    const member = await newMember("omar");
    const other = await newMember("priya");
    await sync(member);
    await sync(other);
    await landMemory(other, "project_from_priya.md", memory("From Priya", "One new memory."));
    expect((await teammem(member, ["status"])).stdout).toContain("the store gained 1 changed file(s) and 0 removal(s) since");

    // "ADR_…" sorts before "MEMORY.md", "project_…" after it: three changed files, two memories.
    await landMemory(other, "ADR_payments.md", memory("Payments ADR", "Payments go through PayFlow."));
    expect((await teammem(member, ["status"])).stdout).toContain("the store gained 2 changed file(s) and 0 removal(s) since");

    // Bodies edited, descriptions kept: the index does not change, two memories do.
    await sync(member);
    for (const file of ["ADR_payments.md", "project_from_priya.md"]) {
      const text = (await readTeamFile(other.teamDir, file))!;
      await writeTeamFile(other.teamDir, file, text.replace(/\n$/, "\nEdited body.\n"));
    }
    const edits = await sync(other);
    for (const entry of edits.proposed) await approve(entry.proposalId!);
    expect((await teammem(member, ["status", "--json"])).stdout).toContain('"changed": 2');
  });
});

describe("teammem propose on a memory whose type may make it private", () => {
  async function propose(member: Member, file: string, type: string) {
    const text = `---\nname: About me\ndescription: How I like answers ${++unique}\n${type}\n---\nPrefers short answers and Go examples.\n`;
    await writeFile(path.join(member.memoryDir, file), text);
    const posts = world.requests.length;
    const result = await teammem(member, ["propose", path.join(member.memoryDir, file)]);
    return { ...result, sent: world.requests.slice(posts).filter((request) => request.method === "POST").length };
  }

  it("refuses `type: User` and a `type:` given twice before anything is sent, naming the problem", async () => {
    const member = await newMember();
    await sync(member);

    const capital = await propose(member, "user_capital.md", "type: User");
    expect(capital.code).not.toBe(0);
    expect(capital.sent).toBe(0);
    expect(capital.stderr).toContain('Type "User" is not one of user, feedback, project, reference');
    expect(capital.stderr).toContain("Nothing was sent");

    const twice = await propose(member, "user_twice.md", "type: project\ntype: user");
    expect(twice.code).not.toBe(0);
    expect(twice.sent).toBe(0);
    expect(twice.stderr).toContain("gives `type` more than once");

    const plain = await propose(member, "user_plain.md", "type: user");
    expect(plain.code).not.toBe(0);
    expect(plain.sent).toBe(0);

    const project = await propose(member, "project_shared.md", "type: project");
    expect(project.code).toBe(0);
    expect(project.sent).toBe(1);
  });
});
