import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { MIRROR_PENDING, mirrorDir } from "@/lib/code-repo/mirror-code-repo";
import { createDb, type Db } from "@/lib/db/client";
import { updateProject } from "@/lib/projects/update-project";
import { validateCodeRepo } from "@/lib/projects/validate-project-fields";
import { queryMemoryRows } from "@/lib/read-model/query-memory-rows";
import { runSetup } from "@/lib/setup/run-setup";
import { checkProjectFreshnessNow, loadProjectFreshness } from "@/lib/stale/load-project-freshness";
import { markStillTrue } from "@/lib/stale/mark-still-true";
import { readSyncChanges } from "@/lib/member-sync/read-sync-changes";
import { refreshProjectFreshness } from "@/lib/stale/refresh-project-freshness";
import { runScheduledCodeChecks } from "@/lib/stale/schedule-code-checks";
import { commitChange } from "@/lib/store/commit-change";
import { readBlobs } from "@/lib/store/git";

let root: string;
let config: Config;
let db: Db;
let codeRepo: string;
let moveCommit: string;
const PROJECT = "acme-checkout";
const LEAD = { userId: "", name: "Lena Lead", email: "lena@acme.example" };

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com" } }).trim();
}

async function commitMemory(file: string, content: string): Promise<void> {
  const identity = { name: LEAD.name, email: LEAD.email };
  const outcome = await commitChange(config, db, { change: { projectId: PROJECT, path: file, content, baseBlob: null }, author: identity, committer: identity, subject: `Add ${file}`, trailers: {}, onIntent: async () => undefined });
  expect(outcome.status).toBe("committed");
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-stale-server-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  LEAD.userId = (await db.user.findUniqueOrThrow({ where: { email: LEAD.email } })).id;
  codeRepo = path.join(root, "code");
  await mkdir(path.join(codeRepo, "src/payments"), { recursive: true });
  git(root, "init", "-q", "--initial-branch=main", codeRepo);
  await writeFile(path.join(codeRepo, "src/payments/ledger.go"), "package payments\n\nfunc PostEntry() {}\n".repeat(4));
  git(codeRepo, "add", "-A");
  git(codeRepo, "commit", "-q", "-m", "first");
  await mkdir(path.join(codeRepo, "src/ledger"), { recursive: true });
  git(codeRepo, "mv", "src/payments/ledger.go", "src/ledger/ledger.go");
  git(codeRepo, "commit", "-q", "-m", "move the ledger");
  moveCommit = git(codeRepo, "rev-parse", "HEAD");
  await commitMemory("reference_ledger_stale.md", "---\nname: Ledger entries\ndescription: Where ledger entries are posted\ntype: reference\n---\nEntries are posted by `PostEntry()` in src/payments/ledger.go:12.\n");
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("staleness on the server", () => {
  it("without a code repository, a memory citing code is 'not checked', never fresh", async () => {
    const freshness = await loadProjectFreshness(config, db, PROJECT);
    expect(freshness.codeRepoProblem).toBe("no code repository is set for this project");
    const ledger = freshness.memories.find((memory) => memory.path === "reference_ledger_stale.md")!;
    expect(ledger.state).not.toBe("fresh");
    expect(ledger.notChecked).toContainEqual(expect.stringMatching(/^not checked: 2 code citations \(no code repository is set for this project\)$/));
  });

  it("checks against a blobless mirror in the data folder, caches per (blob, code commit), and the list filters and sorts in SQL", async () => {
    await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { codeRepo } });
    // A page read never waits for the first clone: it says so and starts it in the background.
    const pending = await loadProjectFreshness(config, db, PROJECT);
    expect(pending.codeRepoProblem).toBe(MIRROR_PENDING);
    expect(pending.memories.find((memory) => memory.path === "reference_ledger_stale.md")!.state).not.toBe("fresh");
    const summary = await checkProjectFreshnessNow(config, db, PROJECT);
    expect(summary).toMatchObject({ codeCommit: moveCommit, codeRepoProblem: null });
    expect(summary.counts.stale).toBeGreaterThan(0);
    const freshness = await loadProjectFreshness(config, db, PROJECT);
    expect(freshness.codeCommit).toBe(moveCommit);
    const mirror = mirrorDir(config.dataDir, PROJECT, codeRepo);
    expect(existsSync(path.join(mirror, "HEAD"))).toBe(true);
    expect(git(mirror, "config", "remote.origin.partialclonefilter")).toBe("blob:none");
    const ledger = freshness.memories.find((memory) => memory.path === "reference_ledger_stale.md")!;
    expect(ledger.state).toBe("stale");
    expect(ledger.signals).toEqual([expect.objectContaining({ kind: "moved-path", message: `\`src/payments/ledger.go:12\` moved to \`src/ledger/ledger.go\` in ${moveCommit.slice(0, 7)} on ${new Date().toISOString().slice(0, 10)}.` })]);

    const again = await refreshProjectFreshness(config, db, PROJECT);
    expect(again).toMatchObject({ checked: 0, updated: 0 });
    expect(again.cached).toBe(freshness.memories.length);

    const page = await queryMemoryRows(db, { projectId: PROJECT, filters: { reason: "moved-path", sort: "stalest" }, page: 1, pageSize: 25, now: new Date() });
    expect(page.rows.map((row) => row.path)).toEqual(["reference_ledger_stale.md"]);
    expect(page.counts.byReason).toContainEqual({ reason: "moved-path", count: 1 });
    const stalest = await queryMemoryRows(db, { projectId: PROJECT, filters: { sort: "stalest" }, page: 1, pageSize: 100, now: new Date() });
    const scores = stalest.rows.map((row) => row.freshness!.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const states = stalest.rows.map((row) => row.freshness!.state);
    expect(states.lastIndexOf("stale")).toBeLessThan(states.indexOf("fresh"));
    expect(states[stalest.rows.findIndex((row) => row.path === "reference_ledger_stale.md")]).toBe("stale");
  });

  it("'Still true' commits verified: <date> as the lead, resets the age in the read model and keeps the record", async () => {
    const before = await db.storeMemory.findUniqueOrThrow({ where: { projectId_path: { projectId: PROJECT, path: "reference_ledger_stale.md" } } });
    const outcome = await markStillTrue(config, db, { projectId: PROJECT, path: "reference_ledger_stale.md", actor: LEAD });
    const after = await db.storeMemory.findUniqueOrThrow({ where: { projectId_path: { projectId: PROJECT, path: "reference_ledger_stale.md" } } });
    expect(after.changedCommit).toBe(outcome.commit);
    expect(after.changedAt.getTime()).toBeGreaterThanOrEqual(before.changedAt.getTime());
    expect((await readBlobs(config.storeCloneDir, [after.blob])).get(after.blob)).toContain(`\nverified: '${outcome.verifiedAt}'\n`);
    expect(git(config.storeRemote, "log", "-1", "--format=%an|%s|%(trailers:key=Verified-by,valueonly)", outcome.commit)).toBe(`${LEAD.name}|Still true: reference_ledger_stale.md|${LEAD.name} <${LEAD.email}>`);
    expect(await db.memoryVerification.count({ where: { projectId: PROJECT, path: "reference_ledger_stale.md", userId: LEAD.userId } })).toBe(1);
    expect(await db.storeMemoryChange.count({ where: { projectId: PROJECT, path: "reference_ledger_stale.md", commit: outcome.commit } })).toBe(1);

    // What a member's next `teammem sync` receives: the file with the verification commit's time (its new mtime).
    const authorTime = new Date(git(config.storeRemote, "log", "-1", "--format=%aI", outcome.commit));
    const sync = await readSyncChanges(config, db, { projectId: PROJECT, userId: LEAD.userId, since: before.changedCommit, expectedHead: null, page: 1, pageSize: 100, proposalIds: [] });
    const file = sync.files.find((candidate) => candidate.path === "reference_ledger_stale.md")!;
    expect(file.changedCommit).toBe(outcome.commit);
    expect(file.changedAt.getTime()).toBe(authorTime.getTime());
    expect(file.content).toContain(`verified: '${outcome.verifiedAt}'`);
  });

  it("an unreachable repository, or a folder that is not git, is named, and nothing citing code is called fresh", async () => {
    const plainFolder = path.join(root, "not-a-repo");
    await mkdir(plainFolder, { recursive: true });
    for (const codeRepoSetting of ["https://127.0.0.1:9/nothing.git", plainFolder]) {
      await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { codeRepo: codeRepoSetting } });
      await checkProjectFreshnessNow(config, db, PROJECT);
      const freshness = await loadProjectFreshness(config, db, PROJECT);
      expect(freshness.codeCommit).toBeNull();
      expect(freshness.codeRepoProblem).toMatch(/^Reading the code repository failed \(git clone\)/);
      const ledger = freshness.memories.find((memory) => memory.path === "reference_ledger_stale.md")!;
      expect(ledger.state).not.toBe("fresh");
      expect(ledger.notChecked.join("\n")).toContain("not checked: 2 code citations (Reading the code repository failed");
    }
  });

  it("refuses a code repository setting that is not a plain git URL or absolute path", () => {
    for (const bad of ["ext::sh -c touch% /tmp/pwned", "--upload-pack=touch /tmp/x", "https://bot:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/a/b.git", "relative/path", "fd::3"]) {
      expect(() => validateCodeRepo(bad), bad).toThrow(/codeRepo/);
    }
    expect(validateCodeRepo("  ")).toBeNull();
    expect(validateCodeRepo("git@github.com:acme/checkout.git")).toBe("git@github.com:acme/checkout.git");
  });

  it("refuses the team store and the data folder as a code repository, also through a link or a file:// URL, and never checks against them", async () => {
    const before = (await db.project.findUniqueOrThrow({ where: { id: PROJECT } })).codeRepo;
    const link = path.join(root, "looks-like-code");
    await symlink(config.storeRemote, link);
    // Folders git reads as the store: a `.git` file or link pointing at it, a repository borrowing its objects.
    const gitFile = path.join(root, "git-file");
    await mkdir(gitFile);
    await writeFile(path.join(gitFile, ".git"), `gitdir: ${config.storeRemote}\n`);
    const gitLink = path.join(root, "git-link");
    await mkdir(gitLink);
    await symlink(config.storeRemote, path.join(gitLink, ".git"));
    const borrowing = path.join(root, "borrowing.git");
    execFileSync("git", ["init", "-q", "--bare", borrowing]);
    await writeFile(path.join(borrowing, "objects", "info", "alternates"), `${path.join(config.storeRemote, "objects")}\n`);
    for (const own of [config.storeRemote, `file://${config.storeRemote}`, config.storeCloneDir, link, path.join(config.dataDir, "code-mirrors"), gitFile, gitLink, borrowing]) {
      await expect(updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { codeRepo: own } }), own).rejects.toThrow(/^codeRepo: it is teammem's own data/);
    }
    expect((await db.project.findUniqueOrThrow({ where: { id: PROJECT } })).codeRepo).toBe(before);
    // A setting saved before the rule is not used either.
    await db.project.update({ where: { id: PROJECT }, data: { codeRepo: config.storeRemote } });
    try {
      expect((await refreshProjectFreshness(config, db, PROJECT, { force: true })).codeRepoProblem).toMatch(/^the code repository is not checked: it is teammem's own data/);
    } finally {
      await db.project.update({ where: { id: PROJECT }, data: { codeRepo: before } });
    }
  });

  it("a scheduled round fetches every project's code repository and checks again, with no page opened", async () => {
    await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { codeRepo } });
    await checkProjectFreshnessNow(config, db, PROJECT);
    // The code moves on (the ledger comes back where the memory says it is); nobody opens a page.
    await mkdir(path.join(codeRepo, "src/payments"), { recursive: true });
    git(codeRepo, "mv", "src/ledger/ledger.go", "src/payments/ledger.go");
    git(codeRepo, "commit", "-q", "-m", "move the ledger back");
    const head = git(codeRepo, "rev-parse", "HEAD");
    expect((await db.staleRun.findUniqueOrThrow({ where: { projectId: PROJECT } })).codeCommit).not.toBe(head);

    expect(await runScheduledCodeChecks(config, db)).toEqual({ checked: [PROJECT], failed: [] });
    expect((await db.staleRun.findUniqueOrThrow({ where: { projectId: PROJECT } })).codeCommit).toBe(head);
    const ledger = (await loadProjectFreshness(config, db, PROJECT)).memories.find((memory) => memory.path === "reference_ledger_stale.md")!;
    expect(ledger.signals.map((signal) => signal.kind)).not.toContain("moved-path");
  });
});
