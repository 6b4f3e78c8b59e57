import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { startSyncWorld } from "../helpers/member-sync-world";
import { memoryText, writeTeamFile } from "../helpers/team-files";
import { privateMemoryDir, teamMemoryDir } from "@/lib/memdir/paths";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { runSync } from "@/lib/sync/run-sync";

/**
 * What reaches a member's terminal from elsewhere: a file handed to `teammem propose` that is not
 * a memory at all (a link to /etc/passwd, a named pipe, a folder), and a lead's rejection reason
 * holding terminal escape sequences, shown by `teammem status` and `teammem sync`. The compiled
 * CLI against the real server world (tests/helpers/member-sync-world.ts).
 */
let world: Awaited<ReturnType<typeof startSyncWorld>>;
type Member = { home: string; checkout: string; memoryDir: string; teamDir: string; token: string };
const ESC = "\u001b";
const HOSTILE_REASON = `no${ESC}]0;owned\u0007${ESC}[2J${ESC}[31m\u202e thanks`;
const SHOWN_REASON = "no\\x1b]0;owned\\x07\\x1b[2J\\x1b[31m\\u202e thanks";

beforeAll(async () => {
  ensureCompiledCli();
  world = await startSyncWorld();
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

describe("teammem propose on a file that is not a regular file", () => {
  it("a symbolic link to /etc/passwd is refused in one line saying links are not followed, and nothing is sent", async () => {
    const member = await makeMember("propose-symlink");
    await mkdir(member.memoryDir, { recursive: true });
    const link = path.join(member.memoryDir, "outside.md");
    await symlink("/etc/passwd", link);
    const before = world.requests.length;
    const refused = await teammem(member, ["propose", link]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/outside\.md is a symbolic link, and teammem does not follow links.*Nothing was sent\.$/)]);
    expect(world.requests.slice(before)).toEqual([]);
  });

  it("a named pipe and a folder are refused at once, each naming what it is, and nothing is sent", async () => {
    const member = await makeMember("propose-fifo");
    await mkdir(path.join(member.memoryDir, "folder.md"), { recursive: true });
    const fifo = path.join(member.memoryDir, "x.md");
    execFileSync("mkfifo", [fifo]);
    const before = world.requests.length;
    // Had the CLI opened the pipe to read it, it would wait for a writer forever: be that writer, late.
    let wasBlocked = false;
    const rescue = setTimeout(() => {
      wasBlocked = true;
      releaseBlockedReader(fifo);
    }, 10_000);
    const piped = await teammem(member, ["propose", fifo]);
    clearTimeout(rescue);
    expect(wasBlocked).toBe(false);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe(`teammem: ${fifo} is a named pipe, not a regular file. Nothing was sent.\n`);
    const folder = await teammem(member, ["propose", path.join(member.memoryDir, "folder.md")]);
    expect(folder.stderr).toMatch(/folder\.md is a folder, not a regular file\. Nothing was sent\.\n$/);
    expect(world.requests.slice(before)).toEqual([]);
  });
});

describe("a lead's rejection reason on a member's terminal", () => {
  it("teammem status and teammem sync print escape sequences and U+202E in the reason as visible escapes (and sync names a pipe it skips)", async () => {
    const member = await makeMember("hostile-reason");
    await sync(member);
    await writeTeamFile(member.teamDir, "project_hostile_reason.md", memoryText("Hostile reason", "Refunds settle in two days.", "Refund settlement takes two business days"));
    const proposalId = (await sync(member)).proposed[0]!.proposalId!;
    await rejectProposal(world.config, world.db, { proposalId, actorId: world.userIds.lena, reason: "placeholder" });
    // Stored as a server before the rule against direction controls in reasons would have kept it.
    await world.db.proposal.update({ where: { id: proposalId }, data: { rejectionReason: HOSTILE_REASON } });

    const status = await teammem(member, ["status"]);
    expect(status.stdout).not.toContain(ESC);
    expect(status.stdout).not.toContain("\u202e");
    expect(status.stdout).toContain(`project_hostile_reason.md: rejected: ${SHOWN_REASON}\n`);
    const statusJson = JSON.parse((await teammem(member, ["status", "--json"])).stdout) as { proposals: { reason: string | null }[] };
    expect(statusJson.proposals.map((proposal) => proposal.reason)).toContain(HOSTILE_REASON); // JSON keeps the text, escaped its own way

    // A named pipe among the team files is listed with the reason, no longer left out silently.
    execFileSync("mkfifo", [path.join(member.teamDir, "pipe.md")]);
    const synced = await teammem(member, ["sync"]);
    expect(synced.stdout).toContain("  skipped   pipe.md: not a regular file (a named pipe)\n");
    expect(synced.stdout).not.toContain(ESC);
    expect(synced.stdout).not.toContain("\u202e");
    expect(synced.stdout).toContain(`project_hostile_reason.md: ${SHOWN_REASON}`);
  });

  it("a team file named after a credential stays on the machine, and sync and status name it masked, in text and JSON", async () => {
    const member = await makeMember("credential-name");
    await sync(member);
    const token = ["ghp", "_", "PsoiXoFg7Lq2Wm9Zt4Rk8Yb3Nc6Vd1Hj5Ea0"].join("");
    await writeTeamFile(member.teamDir, `note_${token}.md`, memoryText("Token note", "Where the deploy bot token lives.", "Deploy bot token location"));
    for (const args of [["sync", "--dry-run"], ["sync"], ["sync", "--json"], ["status"], ["status", "--json"]]) {
      const result = await teammem(member, args);
      expect(result.stdout, args.join(" ")).not.toContain(token.slice(4, 20));
      expect(result.stdout, args.join(" ")).toContain("note_[REDACTED:github-classic-token");
    }
  });
});

async function makeMember(homeName: string): Promise<Member> {
  const { home, checkout } = await world.makeMemberHome(homeName);
  const memoryDir = privateMemoryDir(path.join(home, ".claude"), checkout);
  return { home, checkout, memoryDir, teamDir: teamMemoryDir(memoryDir), token: world.tokens.omar! };
}

function sync(member: Member) {
  return runSync({
    config: { claudeCodeEnv: {}, homeDir: member.home, faultPoint: null },
    target: { server: world.base(), token: member.token },
    cwd: member.checkout,
    projectId: null,
    isDryRun: false,
    clientVersion: "test",
    lockWaitMs: 1_000,
  });
}

function teammem(member: Member, args: string[]) {
  return world.teammem(args, { home: member.home, cwd: member.checkout, token: member.token });
}

/** Opens the pipe for writing and closes it: a reader blocked on it gets an end of file. */
function releaseBlockedReader(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: no process has the pipe open for reading, which is the expected case.
  }
}
