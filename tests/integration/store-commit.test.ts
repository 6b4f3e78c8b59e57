import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { runSetup } from "@/lib/setup/run-setup";
import { commitChange, isCommitOnMain, readBlob, readCurrentFile, type CommitChangeOptions, type StoreChange } from "@/lib/store/commit-change";
import { ensureStore } from "@/lib/store/ensure-store";
import { initBareRepository } from "@/lib/store/git";
import { listProjectMemories, readStoreManifest } from "@/lib/store/read-store";
import { withStoreLock } from "@/lib/store/store-lock";
import { applyMigrations } from "@/lib/db/migrate";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";

// One store and one database for the file (setup seeds the demo once); each test uses its own
// project id, so tests never see each other's files.
let root: string;
let remote: string;
let instanceA: { config: Config; db: Db };
let instanceB: { config: Config; db: Db };
// PostgreSQL migrations take seconds: they run in the background while the git tests run.
let postgresReady: Promise<{ config: Config; drop: () => Promise<void> } | { error: unknown }>;

const ann = { name: "Ann Proposer", email: "ann@example.test" };
const lena = { name: "Lena Lead", email: "lena@example.test" };

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-store-commit-"));
  postgresReady = TEST_POSTGRES_URL ? preparePostgres(root).catch((error: unknown) => ({ error })) : Promise.resolve({ error: "skipped" });
  remote = path.join(root, "store.git");
  await initBareRepository(remote);
  const databaseUrl = `file:${path.join(root, "shared.db")}`;
  const env = (name: string, demo: string) => ({
    TEAMMEM_DATA_DIR: path.join(root, name),
    TEAMMEM_STORE_REMOTE: remote,
    DATABASE_URL: databaseUrl,
    TEAMMEM_DEMO: demo,
    TEAMMEM_CLAUDE_HOME: "",
  });
  const configA = loadConfig(env("instance-a", "on"), root);
  await runSetup(configA);
  // A second app instance: its own data folder and clone, the same remote and database.
  const configB = loadConfig(env("instance-b", "off"), root);
  await mkdir(configB.dataDir, { recursive: true });
  await ensureStore(configB);
  instanceA = { config: configA, db: createDb(configA) };
  instanceB = { config: configB, db: createDb(configB) };
});

afterAll(async () => {
  await Promise.all([instanceA?.db.$disconnect(), instanceB?.db.$disconnect()]);
  const postgres = await postgresReady;
  if (postgres && "drop" in postgres) await postgres.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function preparePostgres(dir: string) {
  const database = await createTestDatabase();
  const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(dir, "pg-data"), DATABASE_URL: database.url }, dir);
  await applyMigrations(config);
  return { config, drop: database.drop };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Other", "-c", "user.email=other@example.test", ...args], { cwd, encoding: "utf8" });
}

const remoteHead = () => git(remote, "rev-parse", "main").trim();
const showAtHead = (file: string) => git(remote, "show", `main:${file}`);

let projectCounter = 0;
const newProjectId = () => `p${++projectCounter}-${process.pid}`;

const memoryText = (fields: { name: string; description: string; type?: string }, body: string) =>
  `---\nname: ${fields.name}\ndescription: ${fields.description}\ntype: ${fields.type ?? "feedback"}\n---\n${body}`;

type Attempt = Partial<Omit<CommitChangeOptions, "change">> & { change: StoreChange };

/** Commits through instance A unless told otherwise, recording every intent. */
async function commit(attempt: Attempt, instance = instanceA) {
  const intents: string[] = [];
  const outcome = await commitChange(instance.config, instance.db, {
    author: ann,
    committer: lena,
    subject: `Change ${attempt.change.path}`,
    trailers: { "Proposal-Id": "prop-test", Source: "member" },
    onIntent: async (commitId) => {
      intents.push(commitId);
    },
    ...attempt,
  });
  return { outcome, intents };
}

/** Adds a memory and returns its blob, the base for later edits. */
async function seedMemory(projectId: string, file: string, text: string): Promise<string> {
  const { outcome } = await commit({ change: { projectId, path: file, content: text, baseBlob: null } });
  expect(outcome.status).toBe("committed");
  const current = await readCurrentFile(instanceA.config, projectId, file);
  return current!.blob;
}

describe("commitChange: one approved change into the team store", () => {
  it("adds a new file with its MEMORY.md and the project in teammem.json, in one commit with author, committer and trailers", async () => {
    const projectId = newProjectId();
    const before = remoteHead();
    const text = memoryText({ name: "Testing", description: "Integration tests hit a real database" }, "Never mock the database.\n");
    const { outcome, intents } = await commit({
      change: { projectId, projectName: "Checkout service", path: "feedback_testing.md", content: text, baseBlob: null },
      subject: "Add feedback memory: Testing",
      trailers: { "Proposal-Id": "prop-42", "Approved-by": "Lena Lead <lena@example.test>", "Reviewed-by": "Lena Lead <lena@example.test>", Source: "member", "Base-Commit": before },
    });

    expect(outcome).toMatchObject({ status: "committed", merged: false });
    if (outcome.status !== "committed") return;
    expect(intents).toEqual([outcome.commit]);
    expect(remoteHead()).toBe(outcome.commit);
    expect(git(remote, "rev-parse", `${outcome.commit}^`).trim()).toBe(before);
    expect(git(remote, "show", "--name-only", "--format=", outcome.commit).trim().split("\n").sort()).toEqual(
      [`projects/${projectId}/MEMORY.md`, `projects/${projectId}/feedback_testing.md`, "teammem.json"],
    );
    expect(showAtHead(`projects/${projectId}/feedback_testing.md`)).toBe(text);
    expect(showAtHead(`projects/${projectId}/MEMORY.md`)).toBe("- [Testing](feedback_testing.md) — Integration tests hit a real database\n");
    expect(outcome.blob).toBe(git(remote, "rev-parse", `main:projects/${projectId}/feedback_testing.md`).trim());

    expect(git(remote, "log", "-1", "--format=%B", "main")).toBe(
      "Add feedback memory: Testing\n\nProposal-Id: prop-42\nApproved-by: Lena Lead <lena@example.test>\n" +
        `Reviewed-by: Lena Lead <lena@example.test>\nSource: member\nBase-Commit: ${before}\nSecret-Scan: pass\n\n`,
    );
    expect(git(remote, "log", "-1", "--format=%an <%ae>|%cn <%ce>", "main").trim()).toBe("Ann Proposer <ann@example.test>|Lena Lead <lena@example.test>");

    // Readers see it at once; the demo project is still there.
    const manifest = await readStoreManifest(instanceA.config);
    expect(manifest?.projects.map((project) => project.id)).toEqual(["acme-checkout", projectId]);
    expect(manifest?.projects[1]).toEqual({ id: projectId, name: "Checkout service" });
    expect((await listProjectMemories(instanceA.config, projectId)).map((memory) => memory.name)).toEqual(["Testing"]);
    expect(await readCurrentFile(instanceA.config, projectId, "feedback_testing.md")).toEqual({ blob: outcome.blob, content: text });
    expect(await readBlob(instanceA.config, outcome.blob!)).toBe(text);
    expect(await readBlob(instanceA.config, "0".repeat(40))).toBeNull();
    expect(await readBlob(instanceA.config, outcome.commit)).toBeNull(); // a commit is not a blob
  });

  it("takes an edit made against the current blob as is, and reports the same content again as unchanged", async () => {
    const projectId = newProjectId();
    const base = await seedMemory(projectId, "project_release.md", memoryText({ name: "Release", description: "Fridays" }, "Release on Fridays.\n"));
    const edited = memoryText({ name: "Release", description: "Thursdays" }, "Release on Thursdays.\n");
    const { outcome } = await commit({ change: { projectId, path: "project_release.md", content: edited, baseBlob: base } });
    expect(outcome).toMatchObject({ status: "committed", merged: false });
    expect(showAtHead(`projects/${projectId}/project_release.md`)).toBe(edited);
    expect(showAtHead(`projects/${projectId}/MEMORY.md`)).toBe("- [Release](project_release.md) — Thursdays\n");

    const head = remoteHead();
    const again = await commit({ change: { projectId, path: "project_release.md", content: edited, baseBlob: base } });
    expect(again.outcome).toEqual({ status: "unchanged", commit: head });
    expect(again.intents).toEqual([]);
    expect(remoteHead()).toBe(head);
  });

  it("two edits from one base changing the same field: the first is kept, the second comes back conflicted with all three versions", async () => {
    const projectId = newProjectId();
    const original = memoryText({ name: "Reviews", description: "Two approvals" }, "Every PR needs review.\n");
    const base = await seedMemory(projectId, "feedback_reviews.md", original);
    const first = original.replace("Two approvals", "One approval");
    const second = original.replace("Two approvals", "Three approvals");

    expect((await commit({ change: { projectId, path: "feedback_reviews.md", content: first, baseBlob: base } })).outcome.status).toBe("committed");
    const head = remoteHead();
    const { outcome, intents } = await commit({ change: { projectId, path: "feedback_reviews.md", content: second, baseBlob: base } });

    expect(outcome).toEqual({ status: "conflicted", base: original, ours: first, theirs: second, conflictingFields: ["description"] });
    expect(intents).toEqual([]);
    expect(remoteHead()).toBe(head);
    expect(showAtHead(`projects/${projectId}/feedback_reviews.md`)).toBe(first);
  });

  it("two edits from one base changing different fields: the second is merged field by field", async () => {
    const projectId = newProjectId();
    const original = memoryText({ name: "Reviews", description: "Two approvals" }, "Every PR needs review.\n");
    const base = await seedMemory(projectId, "feedback_reviews.md", original);
    await commit({ change: { projectId, path: "feedback_reviews.md", content: original.replace("Two approvals", "One approval"), baseBlob: base } });
    const { outcome } = await commit({ change: { projectId, path: "feedback_reviews.md", content: original.replace("name: Reviews", "name: Code reviews"), baseBlob: base } });

    expect(outcome).toMatchObject({ status: "committed", merged: true });
    const merged = memoryText({ name: "Code reviews", description: "One approval" }, "Every PR needs review.\n");
    expect(showAtHead(`projects/${projectId}/feedback_reviews.md`)).toBe(merged);
    expect(showAtHead(`projects/${projectId}/MEMORY.md`)).toBe("- [Code reviews](feedback_reviews.md) — One approval\n");
  });

  it("writes a merged text's commit with the subject made from the text committed, not the one proposed", async () => {
    const projectId = newProjectId();
    const original = memoryText({ name: "Reviews", description: "Two approvals" }, "Every PR needs review.\n");
    const base = await seedMemory(projectId, "feedback_reviews.md", original);
    await commit({ change: { projectId, path: "feedback_reviews.md", content: original.replace("name: Reviews", "name: Code reviews"), baseBlob: base } });
    const subjectOf = (text: string) => `Update memory: ${/^name: (.*)$/m.exec(text)![1]}`;
    const proposed = original.replace("Two approvals", "One approval");
    const { outcome } = await commit({ change: { projectId, path: "feedback_reviews.md", content: proposed, baseBlob: base }, subject: subjectOf(proposed), mergedSubject: subjectOf });
    expect(outcome).toMatchObject({ status: "committed", merged: true });
    expect(git(remote, "log", "-1", "--format=%s", "main").trim()).toBe("Update memory: Code reviews");
    // Not merged: the subject given.
    const latest = git(remote, "rev-parse", `main:projects/${projectId}/feedback_reviews.md`).trim();
    await commit({ change: { projectId, path: "feedback_reviews.md", content: proposed.replace("name: Code reviews", "name: Reviews again"), baseBlob: latest }, subject: "Given subject", mergedSubject: subjectOf });
    expect(git(remote, "log", "-1", "--format=%s", "main").trim()).toBe("Given subject");
  });

  it("merges body edits in different paragraphs, and refuses edits of the same line without writing markers", async () => {
    const projectId = newProjectId();
    const original = memoryText({ name: "Deploys", description: "How we deploy" }, "Deploy from main.\n\nWatch the dashboards.\n\nRoll back fast.\n");
    const base = await seedMemory(projectId, "project_deploys.md", original);
    await commit({ change: { projectId, path: "project_deploys.md", content: original.replace("Deploy from main.", "Deploy from main only."), baseBlob: base } });
    const clean = await commit({ change: { projectId, path: "project_deploys.md", content: original.replace("Roll back fast.", "Roll back within 5 minutes."), baseBlob: base } });
    expect(clean.outcome).toMatchObject({ status: "committed", merged: true });
    expect(showAtHead(`projects/${projectId}/project_deploys.md`)).toContain("Deploy from main only.\n\nWatch the dashboards.\n\nRoll back within 5 minutes.\n");

    const head = remoteHead();
    const conflicted = await commit({ change: { projectId, path: "project_deploys.md", content: original.replace("Watch the dashboards.", "Watch the logs."), baseBlob: base } });
    const conflicted2 = await commit({ change: { projectId, path: "project_deploys.md", content: original.replace("Deploy from main.", "Deploy from a tag."), baseBlob: base } });
    expect(conflicted.outcome.status).toBe("committed"); // a different paragraph again: still clean
    expect(conflicted2.outcome).toMatchObject({ status: "conflicted", conflictingFields: ["body"] });
    expect(remoteHead()).not.toBe(head);
    expect(showAtHead(`projects/${projectId}/project_deploys.md`)).not.toMatch(/<<<<<<<|>>>>>>>|\|\|\|\|\|\|\|/);
  });

  it("retries when someone pushes between its fetch and its push, and keeps history linear", async () => {
    const projectId = newProjectId();
    const base = await seedMemory(projectId, "feedback_ci.md", memoryText({ name: "CI", description: "Green before merge" }, "Keep CI green.\n"));
    const other = path.join(root, `other-${projectId}`);
    git(root, "clone", "-q", remote, other);
    const start = remoteHead();
    let pushedByOther = "";
    const intents: string[] = [];

    const { outcome } = await commit({
      change: { projectId, path: "feedback_ci.md", content: memoryText({ name: "CI", description: "Green before merge" }, "Keep CI green, always.\n"), baseBlob: base },
      onIntent: async (commitId) => {
        intents.push(commitId);
        if (pushedByOther) return;
        // Another writer lands a commit after our fetch, before our push.
        await writeFile(path.join(other, "projects", projectId, "reference_runbook.md"), memoryText({ name: "Runbook", description: "Where the runbook lives", type: "reference" }, "See the wiki.\n"));
        git(other, "add", "-A");
        git(other, "commit", "-qm", "Add runbook");
        git(other, "push", "-q", "origin", "HEAD:main");
        pushedByOther = git(other, "rev-parse", "HEAD").trim();
      },
    });

    expect(outcome).toMatchObject({ status: "committed", merged: false });
    if (outcome.status !== "committed") return;
    expect(intents).toHaveLength(2);
    expect(intents[1]).toBe(outcome.commit);
    expect(git(remote, "rev-parse", `${outcome.commit}^`).trim()).toBe(pushedByOther);
    expect(git(remote, "rev-list", "--merges", `${start}..main`).trim()).toBe("");
    expect(git(remote, "rev-list", "--count", `${start}..main`).trim()).toBe("2");
    expect(showAtHead(`projects/${projectId}/MEMORY.md`).split("\n").filter(Boolean).sort()).toEqual([
      "- [CI](feedback_ci.md) — Green before merge",
      "- [Runbook](reference_runbook.md) — Where the runbook lives",
    ]);
  });

  it("gives up with STORE_UNAVAILABLE when the branch keeps moving, after the bounded attempts", async () => {
    const projectId = newProjectId();
    const other = path.join(root, `other-${projectId}`);
    git(root, "clone", "-q", remote, other);
    await mkdir(path.join(other, "projects", projectId), { recursive: true });
    let pushes = 0;
    const attempt = commit({
      change: { projectId, path: "project_busy.md", content: memoryText({ name: "Busy", description: "busy" }, "x\n"), baseBlob: null },
      maxAttempts: 2,
      onIntent: async () => {
        git(other, "pull", "-q", "--ff-only", "origin", "main");
        await writeFile(path.join(other, "projects", projectId, `other_${++pushes}.md`), "---\nname: Other\n---\n");
        git(other, "add", "-A");
        git(other, "commit", "-qm", `Other ${pushes}`);
        git(other, "push", "-q", "origin", "HEAD:main");
      },
    });
    await expect(attempt).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "STORE_UNAVAILABLE");
    expect(pushes).toBe(2);
    expect(git(remote, "log", "-1", "--format=%s", "main").trim()).toBe("Other 2");
    expect(git(remote, "ls-tree", "--name-only", `main:projects/${projectId}`).trim().split("\n")).toEqual(["other_1.md", "other_2.md"]);
  });

  it("throws STORE_UNAVAILABLE when the remote cannot be reached, and records no intent", async () => {
    const lonelyRemote = path.join(root, "lonely.git");
    await initBareRepository(lonelyRemote);
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "instance-c"), TEAMMEM_STORE_REMOTE: lonelyRemote, DATABASE_URL: instanceA.config.databaseUrl, TEAMMEM_CLAUDE_HOME: "" }, root);
    await mkdir(config.dataDir, { recursive: true });
    await ensureStore(config);
    await rm(lonelyRemote, { recursive: true, force: true }); // the git host goes away
    const attempt = commit({ change: { projectId: newProjectId(), path: "project_x.md", content: "---\nname: X\n---\n", baseBlob: null } }, { config, db: instanceA.db });
    await expect(attempt).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "STORE_UNAVAILABLE");
    expect(await instanceA.db.storeLock.count()).toBe(0); // the lease was released
  });

  it("blocks content with a secret: nothing committed, nothing pushed", async () => {
    const projectId = newProjectId();
    const head = remoteHead();
    const { outcome, intents } = await commit({
      change: { projectId, path: "reference_ci.md", content: memoryText({ name: "CI token", description: "For deploys" }, "Use ghp_R7tq2LmZ9xW4vB8nK3pD6sF1hJ5gY0cA2eUi in CI.\n"), baseBlob: null },
    });
    expect(outcome.status).toBe("blocked_secret");
    if (outcome.status !== "blocked_secret") return;
    expect(outcome.findings.map((finding) => finding.kind)).toEqual(["github-classic-token"]);
    expect(JSON.stringify(outcome)).not.toContain("ghp_R7tq2LmZ9xW4vB8nK3pD6sF1hJ5gY0cA2eUi");
    expect(intents).toEqual([]);
    expect(remoteHead()).toBe(head);
  });

  it("retires a file (content null): the file and its index line go, the other memories stay", async () => {
    const projectId = newProjectId();
    const oldBlob = await seedMemory(projectId, "feedback_old.md", memoryText({ name: "Old rule", description: "No longer true" }, "Old.\n"));
    await seedMemory(projectId, "feedback_new.md", memoryText({ name: "New rule", description: "Still true" }, "New.\n"));
    expect(showAtHead(`projects/${projectId}/MEMORY.md`)).toBe("- [New rule](feedback_new.md) — Still true\n- [Old rule](feedback_old.md) — No longer true\n");

    const { outcome } = await commit({ change: { projectId, path: "feedback_old.md", content: null, baseBlob: oldBlob } });
    expect(outcome).toMatchObject({ status: "committed", merged: false, blob: null });
    expect(git(remote, "ls-tree", "--name-only", `main:projects/${projectId}`).trim().split("\n")).toEqual(["MEMORY.md", "feedback_new.md"]);
    expect(showAtHead(`projects/${projectId}/MEMORY.md`)).toBe("- [New rule](feedback_new.md) — Still true\n");
    expect(await readCurrentFile(instanceA.config, projectId, "feedback_old.md")).toBeNull();
    // Retiring it again finds nothing to do.
    expect((await commit({ change: { projectId, path: "feedback_old.md", content: null, baseBlob: oldBlob } })).outcome.status).toBe("unchanged");
  });

  it("comes back conflicted when one side retired a file the other edited", async () => {
    const projectId = newProjectId();
    const original = memoryText({ name: "Flaky", description: "Known flaky tests" }, "Retry twice.\n");
    const base = await seedMemory(projectId, "project_flaky.md", original);
    await commit({ change: { projectId, path: "project_flaky.md", content: null, baseBlob: base } });
    const edited = original.replace("Retry twice.", "Retry once.");
    const { outcome } = await commit({ change: { projectId, path: "project_flaky.md", content: edited, baseBlob: base } });
    expect(outcome).toEqual({ status: "conflicted", base: original, ours: null, theirs: edited, conflictingFields: ["file"] });
  });

  it("tells whether an intended commit landed, from another instance after a crash", async () => {
    const projectId = newProjectId();
    const landed = await commit({ change: { projectId, path: "project_a.md", content: memoryText({ name: "A", description: "a" }, "a\n"), baseBlob: null } });
    expect(landed.outcome.status).toBe("committed");
    // Instance B has not fetched since; it must still find the commit on main.
    expect(await isCommitOnMain(instanceB.config, landed.intents[0]!)).toBe(true);

    // A crash after recording the intent, before the push: the commit exists only locally.
    const head = remoteHead();
    const recorded: string[] = [];
    const crashed = commitChange(instanceA.config, instanceA.db, {
      change: { projectId, path: "project_b.md", content: memoryText({ name: "B", description: "b" }, "b\n"), baseBlob: null },
      author: ann,
      committer: lena,
      subject: "Add B",
      trailers: {},
      onIntent: async (commitId) => {
        recorded.push(commitId);
        throw new Error("process killed before the push");
      },
    });
    await expect(crashed).rejects.toThrow("process killed before the push");
    expect(remoteHead()).toBe(head);
    expect(await isCommitOnMain(instanceA.config, recorded[0]!)).toBe(false);
    expect(await isCommitOnMain(instanceB.config, recorded[0]!)).toBe(false);
    expect(await isCommitOnMain(instanceA.config, "not-a-commit")).toBe(false);
  });

  it("refuses unsafe paths and project ids before touching the store", async () => {
    for (const change of [
      { projectId: "ok-project", path: "../escape.md" },
      { projectId: "ok-project", path: "MEMORY.md" },
      { projectId: "ok-project", path: "notes.txt" },
      { projectId: "../Bad", path: "x.md" },
    ]) {
      const attempt = commit({ change: { ...change, content: "x\n", baseBlob: null } });
      await expect(attempt).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "INVALID_INPUT");
    }
  });

  it("commits 20 changes in parallel from two app instances exactly once each, with linear history", async () => {
    const projectId = newProjectId();
    const start = remoteHead();
    const runs = Array.from({ length: 20 }, (_, index) =>
      commit(
        {
          change: {
            projectId,
            path: `project_note_${String(index).padStart(2, "0")}.md`,
            content: memoryText({ name: `Note ${index}`, description: `Parallel note ${index}`, type: "project" }, `Body ${index}.\n`),
            baseBlob: null,
          },
          subject: `Add note ${index}`,
        },
        index % 2 === 0 ? instanceA : instanceB,
      ),
    );
    const results = await Promise.all(runs);

    expect(results.map((result) => result.outcome.status)).toEqual(Array(20).fill("committed"));
    const commits = results.map((result) => (result.outcome.status === "committed" ? result.outcome.commit : ""));
    expect(new Set(commits).size).toBe(20);
    const history = git(remote, "rev-list", `${start}..main`).trim().split("\n");
    expect(history.sort()).toEqual([...commits].sort());
    expect(git(remote, "rev-list", "--merges", `${start}..main`).trim()).toBe("");
    const subjects = git(remote, "log", "--format=%s", `${start}..main`).trim().split("\n");
    expect(subjects.sort()).toEqual(Array.from({ length: 20 }, (_, index) => `Add note ${index}`).sort());
    expect(showAtHead(`projects/${projectId}/MEMORY.md`).trim().split("\n")).toHaveLength(20);
    expect(await instanceA.db.storeLock.count()).toBe(0);
  });

  it("changes that arrive together share pushes: one commit each, in arrival order, each with its intent recorded before its push", async () => {
    const projectId = newProjectId();
    // The store counts pushes itself: a post-receive hook runs once per push it accepts.
    const pushLog = path.join(root, `pushes-${projectId}.log`);
    const hook = path.join(remote, "hooks", "post-receive");
    await writeFile(hook, `#!/bin/sh
echo push >> "${pushLog}"
`, { mode: 0o755 });
    const seen: { index: number; intent: string }[] = [];
    try {
      const start = remoteHead();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          commitChange(instanceA.config, instanceA.db, {
            change: { projectId, path: `project_batch_${index}.md`, content: memoryText({ name: `Batch ${index}`, description: `Batched note ${index}`, type: "project" }, `Body ${index}.\n`), baseBlob: null },
            author: ann,
            committer: lena,
            subject: `Add batch note ${index}`,
            trailers: { "Proposal-Id": `prop-batch-${index}`, Source: "member" },
            onIntent: async (intent) => {
              seen.push({ index, intent });
            },
          }),
        ),
      );
      const commits = results.map((outcome) => (outcome.status === "committed" ? outcome.commit : "not committed"));
      // Linear, oldest first: exactly the eight commits, in the order the changes arrived.
      expect(git(remote, "rev-list", "--reverse", `${start}..main`).trim().split("\n")).toEqual(commits);
      expect(git(remote, "rev-list", "--merges", `${start}..main`).trim()).toBe("");
      expect(git(remote, "log", "--reverse", "--format=%s|%(trailers:key=Proposal-Id,valueonly)", `${start}..main`).trim().split("\n").filter(Boolean)).toEqual(
        Array.from({ length: 8 }, (_, index) => `Add batch note ${index}|prop-batch-${index}`),
      );
      expect(seen.map((entry) => entry.intent)).toEqual(commits);
      const pushes = (await readFile(pushLog, "utf8")).trim().split("\n").length;
      expect(pushes).toBeLessThan(8);
      // Every memory is in the index and in the read model at the new head.
      expect(showAtHead(`projects/${projectId}/MEMORY.md`).trim().split("\n")).toHaveLength(8);
      expect(await instanceA.db.storeMemory.count({ where: { projectId } })).toBe(8);
    } finally {
      await rm(hook, { force: true });
    }
  });

  it("a store on the same disk keeps a sound object database and history after direct pushes, and its receive hooks still run and can refuse", async () => {
    const projectId = newProjectId();
    const start = remoteHead();
    for (let index = 0; index < 3; index += 1) await seedMemory(projectId, `project_direct_${index}.md`, memoryText({ name: `Direct ${index}`, description: `Direct note ${index}`, type: "project" }, `Body ${index}.\n`));
    expect(git(remote, "rev-list", "--count", `${start}..main`).trim()).toBe("3");
    expect(() => git(remote, "fsck", "--strict", "--no-dangling")).not.toThrow();
    expect(git(instanceA.config.storeCloneDir, "rev-parse", "refs/remotes/origin/main").trim()).toBe(remoteHead());

    // A store with a pre-receive hook gets a real push, so the hook decides.
    const hook = path.join(remote, "hooks", "pre-receive");
    await writeFile(hook, "#!/bin/sh\necho 'refused by the store policy' >&2\nexit 1\n", { mode: 0o755 });
    try {
      const before = remoteHead();
      const attempt = commit({ change: { projectId, path: "project_refused.md", content: memoryText({ name: "Refused", description: "Refused by a hook", type: "project" }, "Body.\n"), baseBlob: null } });
      await expect(attempt).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(remoteHead()).toBe(before);
    } finally {
      await rm(hook, { force: true });
    }
  });
});

/** The lease itself, with two clients on one database: holders never overlap, expired leases are taken over. */
async function checkStoreLock(dbA: Db, dbB: Db): Promise<void> {
  const name = `lock-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
  let active = 0;
  let maxActive = 0;
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 12 }, (_, index) =>
      withStoreLock(index % 2 === 0 ? dbA : dbB, name, async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(index);
        active--;
      }),
    ),
  );
  expect(maxActive).toBe(1);
  expect(order.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, index) => index));
  expect(await dbA.storeLock.count({ where: { name } })).toBe(0);

  // A holder that died: its lease ran out, so the next one takes it over.
  await dbA.storeLock.create({ data: { name, holder: "dead-instance", expiresAt: new Date(Date.now() - 1000) } });
  expect(await withStoreLock(dbB, name, async () => "ran")).toBe("ran");

  // A live holder: a waiter gives up after its bound with STORE_UNAVAILABLE, and work never runs.
  await dbA.storeLock.create({ data: { name, holder: "live-instance", expiresAt: new Date(Date.now() + 60_000) } });
  let ran = false;
  const waiting = withStoreLock(dbB, name, async () => (ran = true), { waitMs: 300 });
  await expect(waiting).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "STORE_UNAVAILABLE");
  expect(ran).toBe(false);
  expect(await dbA.storeLock.findUnique({ where: { name } })).toMatchObject({ holder: "live-instance" });
  await dbA.storeLock.delete({ where: { name } });
}

describe("withStoreLock", () => {
  it("serialises holders from two instances on one SQLite file", async () => {
    await checkStoreLock(instanceA.db, instanceB.db);
  });

  // CI always provides PostgreSQL (.ci/run); a developer without one sees this skipped.
  it.skipIf(!TEST_POSTGRES_URL)("serialises holders from two instances on one PostgreSQL database", async () => {
    const ready = await postgresReady;
    if ("error" in ready) throw ready.error;
    const [dbA, dbB] = [createDb(ready.config), createDb(ready.config)];
    try {
      await checkStoreLock(dbA, dbB);
    } finally {
      await Promise.all([dbA.$disconnect(), dbB.$disconnect()]);
    }
  });
});

describe("commitChange: a file and a folder of one name", () => {
  it("refuses a memory inside a folder whose name is a memory file, and keeps that file", async () => {
    const projectId = newProjectId();
    await seedMemory(projectId, "project_ledger.md", memoryText({ name: "Ledger", description: "The ledger" }, "Body.\n"));
    const before = remoteHead();
    const attempt = commit({ change: { projectId, path: "project_ledger.md/inner.md", content: memoryText({ name: "Inner", description: "Inside" }, "x\n"), baseBlob: null } });
    await expect(attempt).rejects.toThrow(/project_ledger\.md/);
    expect(remoteHead()).toBe(before);
    expect(showAtHead(`projects/${projectId}/project_ledger.md`)).toContain("name: Ledger");
  });

  it("refuses a memory whose name is a folder of memories, and keeps what the folder holds", async () => {
    const projectId = newProjectId();
    await seedMemory(projectId, "notes.md/deploys.md", memoryText({ name: "Deploys", description: "How deploys go" }, "Body.\n"));
    const before = remoteHead();
    const attempt = commit({ change: { projectId, path: "notes.md", content: memoryText({ name: "Notes", description: "All of them" }, "x\n"), baseBlob: null } });
    await expect(attempt).rejects.toThrow(/notes\.md/);
    expect(remoteHead()).toBe(before);
    expect(showAtHead(`projects/${projectId}/notes.md/deploys.md`)).toContain("name: Deploys");
  });
});
