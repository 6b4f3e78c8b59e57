import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { approveProposal } from "@/lib/review/approve-proposal";
import { commitClaimName } from "@/lib/review/commit-approved-proposal";
import { getProposal } from "@/lib/review/get-proposal";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { withdrawProposal } from "@/lib/review/withdraw-proposal";
import { startOrphanedApprovalSweep } from "@/lib/review/reconcile-commits";
import { reopenProposal } from "@/lib/review/reopen-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureStore } from "@/lib/store/ensure-store";
import { getStoreStatus, listProjectMemories, listStoreProjects, refreshStore } from "@/lib/store/read-store";
import { distinctProjectMemory } from "../helpers/distinct-memory";

// What happens when an approval's server is gone or the store cannot be reached: the store and
// the database never disagree, and reads keep serving what the server last saw.
let root: string;
let config: Config;
let db: Db;
const users = { lena: "", omar: "" };
const PROJECT = "acme-checkout";

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-recovery-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: "" }, root);
  await runSetup(config);
  db = createDb(config);
  for (const name of ["lena", "omar"] as const) users[name] = (await db.user.findUniqueOrThrow({ where: { email: `${name}@acme.example` } })).id;
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

const storeGit = (...args: string[]) => execFileSync("git", ["--git-dir", config.storeRemote, ...args], { encoding: "utf8" }).trim();
const commitsFor = (proposalId: string) => storeGit("log", "--format=%H", "main", `--grep=^Proposal-Id: ${proposalId}$`).split("\n").filter(Boolean);

let counter = 0;
async function submit(): Promise<{ id: string; path: string }> {
  const label = `recovery_${counter++}`;
  const content = distinctProjectMemory("Recovery", label);
  return submitProposal(config, db, { projectId: PROJECT, path: `project_${label}.md`, content, source: "member", proposerId: users.omar });
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

/** The state a push whose connection broke after it landed leaves behind: commit_failed, its commit on main. */
async function landedButFailed(): Promise<{ id: string; commit: string }> {
  const proposal = await submit();
  const committed = await approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 });
  await db.proposal.update({ where: { id: proposal.id }, data: { state: "commit_failed", committedCommit: null, intendedCommit: committed.committedCommit } });
  return { id: proposal.id, commit: committed.committedCommit! };
}

async function withStoreAway<T>(work: () => Promise<T>): Promise<T> {
  const hidden = `${config.storeRemote}.away`;
  await rename(config.storeRemote, hidden);
  try {
    return await work();
  } finally {
    await rename(hidden, config.storeRemote);
  }
}

describe("a commit_failed proposal whose push had landed", () => {
  it("is marked committed, not rejected, when a lead rejects it: the memory is in the store, so the database says so", async () => {
    const { id, commit } = await landedButFailed();
    const error = await expectCode(rejectProposal(config, db, { proposalId: id, actorId: users.lena, reason: "not needed after all" }), "CONFLICT");
    expect(error.message).toMatch(/reached the team store/);
    expect(await getProposal(config, db, id)).toMatchObject({ state: "committed", committedCommit: commit });
    expect(commitsFor(id)).toEqual([commit]);
  });

  it("is marked committed, not withdrawn by its proposer", async () => {
    const { id, commit } = await landedButFailed();
    await expectCode(withdrawProposal(config, db, { proposalId: id, actorId: users.omar }), "CONFLICT");
    expect(await getProposal(config, db, id)).toMatchObject({ state: "committed", committedCommit: commit });
  });

  it("is marked committed, not reopened", async () => {
    const { id, commit } = await landedButFailed();
    await expectCode(reopenProposal(config, db, { proposalId: id, actorId: users.omar }), "CONFLICT");
    expect(await getProposal(config, db, id)).toMatchObject({ state: "committed", committedCommit: commit });
  });

  it("cannot be rejected while the store cannot be asked, and stays as it was", async () => {
    const { id } = await landedButFailed();
    await withStoreAway(() => expectCode(rejectProposal(config, db, { proposalId: id, actorId: users.lena, reason: "not needed" }), "STORE_UNAVAILABLE"));
    expect((await getProposal(config, db, id)).state).toBe("commit_failed");
  });

  it("is rejected when its push did not land", async () => {
    const proposal = await submit();
    await db.proposal.update({ where: { id: proposal.id }, data: { state: "commit_failed", intendedCommit: "0".repeat(40) } });
    await rejectProposal(config, db, { proposalId: proposal.id, actorId: users.lena, reason: "not needed" });
    expect((await getProposal(config, db, proposal.id)).state).toBe("rejected");
    expect(commitsFor(proposal.id)).toEqual([]);
  });
});

describe("an approved proposal whose server stopped", () => {
  /** approved, with the intent recorded, no claim held: the server died between its lock and its push. */
  async function orphaned(): Promise<string> {
    const proposal = await submit();
    await db.proposal.update({ where: { id: proposal.id }, data: { state: "approved", approvedRevision: 1, approvedById: users.lena, intendedCommit: "1".repeat(40) } });
    return proposal.id;
  }

  it("is committed exactly once when a lead approves it again", async () => {
    const id = await orphaned();
    const retried = await approveProposal(config, db, { proposalId: id, approverId: users.lena, revision: 1 });
    expect(retried.state).toBe("committed");
    expect(commitsFor(id)).toEqual([retried.committedCommit]);
  });

  it("can be rejected: the store is asked first, and nothing reaches it", async () => {
    const id = await orphaned();
    await rejectProposal(config, db, { proposalId: id, actorId: users.lena, reason: "we decided against it" });
    const rejected = await getProposal(config, db, id);
    expect(rejected.state).toBe("rejected");
    expect(rejected.events.map((event) => event.toState).slice(-2)).toEqual(["commit_failed", "rejected"]);
    expect(commitsFor(id)).toEqual([]);
  });

  it("is finished by any instance's next approval once it is older than a claim's lease", async () => {
    const id = await orphaned();
    await db.proposal.update({ where: { id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    const other = await submit();
    expect((await approveProposal(config, db, { proposalId: other.id, approverId: users.lena, revision: 1 })).state).toBe("committed");
    expect((await getProposal(config, db, id)).state).toBe("committed");
    expect(commitsFor(id)).toHaveLength(1);
  });

  it("is finished by any running server's sweep, with no approval coming", async () => {
    const id = await orphaned();
    await db.proposal.update({ where: { id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    const stop = startOrphanedApprovalSweep(config, db, 50);
    try {
      await expect.poll(async () => (await getProposal(config, db, id)).state, { timeout: 10_000, interval: 50 }).toBe("committed");
    } finally {
      stop();
    }
    expect(commitsFor(id)).toHaveLength(1);
  });

  it("is left to its server while that server still holds the proposal's claim", async () => {
    const id = await orphaned();
    // A live claim from another machine (its heartbeat still runs).
    await db.storeLock.create({ data: { name: commitClaimName(id), holder: "another-host|ns|1|1|abcd", expiresAt: new Date(Date.now() + 60_000) } });
    await expectCode(approveProposal(config, db, { proposalId: id, approverId: users.lena, revision: 1 }), "CONFLICT");
    await expectCode(rejectProposal(config, db, { proposalId: id, actorId: users.lena, reason: "no" }), "CONFLICT");
    expect((await getProposal(config, db, id)).state).toBe("approved");
    // Its heartbeat stops: once the claim expires, a lead can act.
    await db.storeLock.update({ where: { name: commitClaimName(id) }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await approveProposal(config, db, { proposalId: id, approverId: users.lena, revision: 1 })).state).toBe("committed");
    expect(commitsFor(id)).toHaveLength(1);
  });
});

describe("the store out of reach", () => {
  it("keeps serving the last known memories, says since when the store is unreachable, and answers every approval commit_failed", async () => {
    await refreshStore(config, { force: true });
    const before = await listProjectMemories(config, PROJECT);
    expect(getStoreStatus(config).unreachableSince).toBeNull();
    const [fresh, stale] = [await submit(), await submit()];

    const during = await withStoreAway(async () => {
      await refreshStore(config, { force: true });
      const status = getStoreStatus(config);
      const memories = await listProjectMemories(config, PROJECT);
      const projects = await listStoreProjects(config);
      await expectCode(refreshStore(config, { mustReach: true }), "STORE_UNAVAILABLE");
      // Right after a fetch, and once the last fetch is older than the refresh interval: one answer.
      const first = await approveProposal(config, db, { proposalId: fresh.id, approverId: users.lena, revision: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5_200));
      const second = await approveProposal(config, db, { proposalId: stale.id, approverId: users.lena, revision: 1 });
      return { status, memories, projects, states: [first.state, second.state], reason: second.events.at(-1)?.reason };
    });
    expect(during.status.unreachableSince).toBeInstanceOf(Date);
    expect(during.memories).toEqual(before);
    expect(during.projects.map((project) => project.id)).toContain(PROJECT);
    expect(during.states).toEqual(["commit_failed", "commit_failed"]);
    expect(during.reason).toMatch(/team store/);

    await refreshStore(config, { force: true });
    expect(getStoreStatus(config).unreachableSince).toBeNull();
    for (const { id } of [fresh, stale]) {
      expect((await approveProposal(config, db, { proposalId: id, approverId: users.lena, revision: 1 })).state).toBe("committed");
      expect(commitsFor(id)).toHaveLength(1);
    }
  }, 60_000);
});

describe("the embedded store's branch", () => {
  it("points an existing store's HEAD from an unborn master to main, touching nothing else", async () => {
    const dataDir = path.join(root, "legacy");
    const storeDir = path.join(dataDir, "store.git");
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=master", storeDir]);
    const legacy = loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_CLAUDE_HOME: "" }, root);
    await ensureStore(legacy);
    expect(execFileSync("git", ["--git-dir", storeDir, "symbolic-ref", "HEAD"], { encoding: "utf8" }).trim()).toBe("refs/heads/main");
  });

  it("leaves a HEAD on a branch that has commits as it is", async () => {
    const dataDir = path.join(root, "chosen");
    const storeDir = path.join(dataDir, "store.git");
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=trunk", storeDir]);
    const work = path.join(root, "chosen-work");
    execFileSync("git", ["clone", "--quiet", storeDir, work]);
    execFileSync("git", ["-C", work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "--allow-empty", "-m", "first"]);
    execFileSync("git", ["-C", work, "push", "--quiet", "origin", "HEAD:trunk"]);
    await ensureStore(loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_CLAUDE_HOME: "" }, root));
    expect(execFileSync("git", ["--git-dir", storeDir, "symbolic-ref", "HEAD"], { encoding: "utf8" }).trim()).toBe("refs/heads/trunk");
  });

  it("creates a new store with HEAD on main", async () => {
    const dataDir = path.join(root, "new");
    await mkdir(dataDir);
    const { createdStore } = await ensureStore(loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_CLAUDE_HOME: "" }, root));
    expect(createdStore).toBe(true);
    expect(execFileSync("git", ["--git-dir", path.join(dataDir, "store.git"), "symbolic-ref", "HEAD"], { encoding: "utf8" }).trim()).toBe("refs/heads/main");
  });
});
