import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { filterMemories } from "@/lib/memories/filter-memories";
import { loadMemoryRows } from "@/lib/memories/load-memory-rows";
import { ensureReadModel, readModelCatchUp } from "@/lib/read-model/ensure-read-model";
import { queryMemoryRows } from "@/lib/read-model/query-memory-rows";
import { readRecordedCommit, rebuildReadModel, syncReadModel } from "@/lib/read-model/sync-read-model";
import { approveProposal } from "@/lib/review/approve-proposal";
import { findDuplicates } from "@/lib/review/find-duplicates";
import { loadDuplicateFinder } from "@/lib/review/load-duplicate-finder";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { commitChange } from "@/lib/store/commit-change";
import { readProjectFiles, refreshStore } from "@/lib/store/read-store";
import { isMemoryFile, regenerateProjectIndex } from "@/lib/store/regenerate-project-index";

/**
 * The read model is a cache of the store with a known commit: after every kind of change it must
 * equal a rebuild from git, and the pages it serves must answer as the file scan did.
 */
let root: string;
let config: Config;
let db: Db;
const users = { lena: "", omar: "" };
const PROJECT = "acme-checkout";
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-read-model-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  for (const name of ["lena", "omar"] as const) users[name] = (await db.user.findUniqueOrThrow({ where: { email: `${name}@acme.example` } })).id;
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

const storeGit = (...args: string[]) => execFileSync("git", ["--git-dir", config.storeRemote, ...args], { encoding: "utf8" }).trim();

async function rows() {
  const [memories, history] = await Promise.all([
    db.storeMemory.findMany({ orderBy: [{ projectId: "asc" }, { path: "asc" }] }),
    db.storeMemoryChange.findMany({ orderBy: [{ projectId: "asc" }, { path: "asc" }, { commit: "asc" }] }),
  ]);
  return Object.assign(memories, { history });
}

/** Syncs, then proves the rows equal a rebuild from git at the same commit. */
async function expectSyncEqualsRebuild(expectedMode: string) {
  await refreshStore(config, { force: true });
  const sync = await syncReadModel(config, db);
  expect(sync.mode).toBe(expectedMode);
  expect(sync.commit).toBe(storeGit("rev-parse", "main"));
  const synced = await rows();
  const rebuilt = await rebuildReadModel(config, db);
  expect(rebuilt.commit).toBe(sync.commit);
  const again = await rows();
  expect(again).toEqual(synced);
  expect(again.history).toEqual(synced.history); // each file's commits too
  return { sync, synced };
}

const memory = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\nDecided on 2026-11-02.\n**Why:** it surprised us.\n**How to apply:** every checkout change.\n`;

async function approveNew(file: string, content: string | null, baseBlob?: string | null) {
  const proposal = await submitProposal(config, db, { projectId: PROJECT, path: file, content, source: "member", proposerId: users.omar, ...(baseBlob === undefined ? {} : { baseBlob }) });
  const approved = await approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 });
  expect(approved.state).toBe("committed");
  return approved;
}

describe("the read model", () => {
  it("is built from git on first use and records the commit it reflects", async () => {
    await db.systemState.deleteMany({ where: { key: "read-model-commit" } }); // as on a database that predates it
    await refreshStore(config, { force: true });
    const first = await syncReadModel(config, db);
    expect(first.mode).toBe("rebuild");
    expect(await readRecordedCommit(db)).toBe(storeGit("rev-parse", "main"));
    const demo = (await rows()).filter((row) => row.projectId === PROJECT);
    expect(demo).toHaveLength(Number(storeGit("ls-tree", "-r", "--name-only", "main", `projects/${PROJECT}/`).split("\n").filter((file) => file.endsWith(".md") && !file.endsWith("/MEMORY.md")).length));
    expect((await syncReadModel(config, db)).mode).toBe("current");
  });

  it("follows a create, an edit and a retirement in the step that records each commit, equal to a rebuild", async () => {
    const file = `project_read_model_${counter++}.md`;
    const created = await approveNew(file, memory("Read model create", "Checkout read model row appears with the commit that adds it"));
    // No read happened in between: the commit itself moved the read model.
    expect(await readRecordedCommit(db)).toBe(created.committedCommit);
    const { synced } = await expectSyncEqualsRebuild("current");
    const row = synced.find((candidate) => candidate.path === file)!;
    expect(row).toMatchObject({ name: "Read model create", type: "project", changedCommit: created.committedCommit, changedBy: "Omar Haddad", hasSecret: false });

    const edited = await approveNew(file, memory("Read model edit", "Checkout read model row follows an edit"), row.blob);
    const afterEdit = await expectSyncEqualsRebuild("current");
    // The file's history, newest first, as `git log` of that file gives it.
    const history = afterEdit.synced.history.filter((change) => change.path === file).sort((a, b) => b.at.getTime() - a.at.getTime() || (a.commit === edited.committedCommit ? -1 : 1));
    expect(history.map((change) => change.commit)).toEqual(storeGit("log", "--format=%H", "main", "--", `projects/${PROJECT}/${file}`).split("\n"));
    expect(afterEdit.synced.find((candidate) => candidate.path === file)).toMatchObject({ name: "Read model edit", changedCommit: edited.committedCommit });

    await approveNew(file, null, afterEdit.synced.find((candidate) => candidate.path === file)!.blob);
    const afterRetire = await expectSyncEqualsRebuild("current");
    expect(afterRetire.synced.some((candidate) => candidate.path === file)).toBe(false);

    // Each commit wrote MEMORY.md from the read model's headers: the same bytes as a regeneration from every file in git.
    const files = await readProjectFiles(config, PROJECT);
    const fromGit = regenerateProjectIndex(files.filter((entry) => entry.path !== "MEMORY.md"));
    expect(storeGit("show", `main:projects/${PROJECT}/MEMORY.md`)).toBe(fromGit.trimEnd());
  });

  it("follows approvals that arrive together (one push, one record for all their commits), equal to a rebuild", async () => {
    const [kept, retired] = [`project_read_model_${counter++}.md`, `project_read_model_${counter++}.md`];
    await approveNew(kept, memory("Read model batch kept", "Checkout read model batch file edited in the batch"));
    await approveNew(retired, memory("Read model batch retired", "Checkout read model batch file retired in the batch"));
    const blobs = new Map((await rows()).map((row) => [row.path, row.blob]));
    const changes = [
      { path: `project_read_model_${counter++}.md`, content: memory("Read model batch one", "Checkout read model batch first new file"), baseBlob: null },
      { path: `project_read_model_${counter++}.md`, content: memory("Read model batch two", "Checkout read model batch second new file"), baseBlob: null },
      { path: kept, content: memory("Read model batch edited", "Checkout read model batch file after its edit"), baseBlob: blobs.get(kept)! },
      { path: retired, content: null, baseBlob: blobs.get(retired)! },
    ];
    const proposals = [];
    for (const change of changes) proposals.push(await submitProposal(config, db, { projectId: PROJECT, source: "member", proposerId: users.omar, ...change }));
    const approved = await Promise.all(proposals.map((proposal) => approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 })));
    expect(approved.map((proposal) => proposal.state)).toEqual(["committed", "committed", "committed", "committed"]);
    // No read happened in between: the commits themselves moved the read model to the last of them.
    expect(await readRecordedCommit(db)).toBe(storeGit("rev-parse", "main"));
    const { synced } = await expectSyncEqualsRebuild("current");
    expect(synced.find((row) => row.path === kept)).toMatchObject({ name: "Read model batch edited", changedCommit: approved[2]!.committedCommit });
    expect(synced.some((row) => row.path === retired)).toBe(false);
    expect(synced.history.filter((change) => approved.some((proposal) => proposal.committedCommit === change.commit))).toHaveLength(4);
  });

  it("keeps the duplicate finder in step with each approval: it answers as a finder built from git", async () => {
    const file = `project_duplicate_follow_${counter++}.md`;
    const probe = memory("Ledger quota reset", "Ledger quota for checkout exports resets every night at midnight");
    const expectAnswersAsGit = async () => {
      await refreshStore(config, { force: true });
      const kept = await loadDuplicateFinder(config, db, PROJECT);
      const files = (await readProjectFiles(config, PROJECT)).filter((entry) => entry.path !== "MEMORY.md");
      const fromGit = findDuplicates(probe, files);
      expect(kept.find(probe)).toEqual(fromGit);
      return fromGit.map((candidate) => candidate.path);
    };
    expect(await expectAnswersAsGit()).not.toContain(file); // the finder exists and sits at the head

    const created = await approveNew(file, memory("Ledger quota reset", "Ledger quota for checkout exports resets each night at midnight"));
    expect(await expectAnswersAsGit()).toContain(file);
    const blob = (await db.storeMemory.findFirstOrThrow({ where: { projectId: PROJECT, path: file } })).blob;
    expect(created.committedCommit).toBe(await readRecordedCommit(db));

    const unrelated = "---\nname: Payment retries\ndescription: PayFlow retries twice with backoff before a checkout fails\ntype: project\n---\nSandbox card 4000 0000 0000 0341 declines after the retry budget.\n";
    const edited = await approveNew(file, unrelated, blob);
    expect(await expectAnswersAsGit()).not.toContain(file);
    const editedBlob = (await db.storeMemory.findFirstOrThrow({ where: { projectId: PROJECT, path: file } })).blob;
    expect(edited.state).toBe("committed");

    await approveNew(file, null, editedBlob);
    expect(await expectAnswersAsGit()).not.toContain(file);
  });

  it("an approval judges again only what changed since the proposal's checks, and finds a duplicate approved in between as a full search does", async () => {
    const file = `project_quota_probe_${counter++}.md`;
    const probe = "---\nname: Ledger quota nightly\ndescription: Ledger quota for checkout exports resets nightly at midnight UTC\ntype: project\n---\nThe ledger export quota resets at 00:00 UTC.\n**Why:** the vendor counts per calendar day.\n**How to apply:** schedule big exports after midnight.\n";
    const waiting = await submitProposal(config, db, { projectId: PROJECT, path: file, content: probe, source: "member", proposerId: users.omar });
    expect(waiting.checks.duplicates).toEqual([]);

    // Meanwhile a near-copy enters the store through another proposal.
    const twin = `project_quota_twin_${counter++}.md`;
    await approveNew(twin, probe.replace("Ledger quota nightly", "Ledger quota resets nightly"));
    const files = (await readProjectFiles(config, PROJECT)).filter((entry) => entry.path !== "MEMORY.md");
    const fullSearch = findDuplicates(probe, files);
    expect(fullSearch.map((candidate) => candidate.path)).toContain(twin);

    // The first approval finds the copy the proposal's checks never showed: refused, naming it.
    await expect(approveProposal(config, db, { proposalId: waiting.id, approverId: users.lena, revision: 1 })).rejects.toThrow(twin);
    const approved = await approveProposal(config, db, { proposalId: waiting.id, approverId: users.lena, revision: 1 });
    expect(approved.state).toBe("committed");
    expect(approved.checks.duplicates).toEqual(fullSearch);
  });

  it("catches up with a push from outside teammem, and with a commit whose record was lost", async () => {
    const clone = path.join(root, `outside-${counter++}`);
    execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
    await writeFile(path.join(clone, "projects", PROJECT, "reference_outside.md"), memory("Pushed from outside", "Checkout memory pushed around review by a script"));
    execFileSync("git", ["-C", clone, "add", "."]);
    execFileSync("git", ["-C", clone, "-c", "user.name=Outside Script", "-c", "user.email=script@example.invalid", "commit", "-qm", "outside"]);
    execFileSync("git", ["-C", clone, "push", "-q", "origin", "HEAD:main"]);
    const { synced } = await expectSyncEqualsRebuild("incremental");
    expect(synced.find((row) => row.path === "reference_outside.md")).toMatchObject({ changedBy: "Outside Script", name: "Pushed from outside" });

    // A commit that reached the store while nothing updated the read model (a crash between the
    // push and the database record, simulated by putting the record back): the next read applies its diff.
    const recordedBefore = await readRecordedCommit(db);
    const outcome = await commitChange(config, db, {
      change: { projectId: PROJECT, path: `project_crash_${counter++}.md`, content: memory("Landed before the crash", "Checkout commit whose record was lost"), baseBlob: null },
      author: { name: "Omar Haddad", email: "omar@acme.example" },
      committer: { name: "Lena Park", email: "lena@acme.example" },
      subject: "Add project memory: crash",
      trailers: {},
      onIntent: async () => undefined,
    });
    expect(outcome.status).toBe("committed");
    // This commit's MEMORY.md started from headers remembered before the outside push, moved by
    // the files that differ: the same bytes as a regeneration from every file in git.
    const files = await readProjectFiles(config, PROJECT);
    expect(storeGit("show", `main:projects/${PROJECT}/MEMORY.md`)).toBe(regenerateProjectIndex(files.filter((entry) => entry.path !== "MEMORY.md")).trimEnd());
    await db.systemState.update({ where: { key: "read-model-commit" }, data: { value: recordedBefore! } });
    const { sync } = await expectSyncEqualsRebuild("incremental");
    expect(sync.changedFiles).toBe(1); // the diff also holds MEMORY.md, which is not a memory row
  });

  it("leaves out a file whose name holds a credential (pushed from outside): no row, no history, not in the index, not proposable", async () => {
    const token = ["ghp", "_", "Wq2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2Vb4M"].join("");
    const secretName = `reference_${token}.md`;
    const clone = path.join(root, `outside-${counter++}`);
    execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
    await writeFile(path.join(clone, "projects", PROJECT, secretName), memory("Named by a token", "Checkout memory whose file name is a credential"));
    await writeFile(path.join(clone, "projects", PROJECT, "reference_named_well.md"), memory("Named well", "Checkout memory pushed beside it"));
    execFileSync("git", ["-C", clone, "add", "."]);
    execFileSync("git", ["-C", clone, "-c", "user.name=Outside Script", "-c", "user.email=script@example.invalid", "commit", "-qm", `outside: add ${secretName}`]);
    execFileSync("git", ["-C", clone, "push", "-q", "origin", "HEAD:main"]);
    const { synced } = await expectSyncEqualsRebuild("incremental");
    expect(synced.map((row) => row.path)).toContain("reference_named_well.md");
    expect(JSON.stringify(synced)).not.toContain(token);
    // The commit's subject names the token too: the history of the file named well shows it masked.
    expect(synced.history.find((row) => row.path === "reference_named_well.md")?.subject).toMatch(/^outside: add reference_\[REDACTED:/);
    expect(JSON.stringify(synced.history)).not.toContain(token);
    // The next commit's MEMORY.md lists the file named well, never the other one.
    await approveNew(`project_after_token_${counter++}.md`, memory("After the token", "Checkout memory committed after the outside push"));
    const index = storeGit("show", `main:projects/${PROJECT}/MEMORY.md`);
    expect(index).toContain("reference_named_well.md");
    expect(index).not.toContain(token);
    // A retirement by that name is refused, saying how to remove it.
    await expect(submitProposal(config, db, { projectId: PROJECT, path: secretName, content: null, source: "member", proposerId: users.omar })).rejects.toThrow(/remove it with git/);
  });

  it("catches up with a push of more commits than one database statement can name (700), from their diff", async () => {
    const clone = path.join(root, `bulk-${counter++}`);
    execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
    const parent = storeGit("rev-parse", "main");
    const stream = [`reset refs/heads/main`, `from ${parent}`, ""];
    for (let index = 0; index < 700; index++) {
      const text = memory(`Bulk ${index}`, `Checkout bulk import memory number ${index} from a migration script`);
      stream.push(`commit refs/heads/main`, `author Importer <import@example.invalid> ${1_764_000_000 + index} +0000`, `committer Importer <import@example.invalid> ${1_764_000_000 + index} +0000`, "data 6", "import", `M 100644 inline projects/${PROJECT}/reference_bulk_${index}.md`, `data ${Buffer.byteLength(text)}`, text, "");
    }
    execFileSync("git", ["-C", clone, "fast-import", "--quiet"], { input: stream.join("\n") });
    execFileSync("git", ["-C", clone, "push", "-q", "origin", "main:main"]);
    const { sync, synced } = await expectSyncEqualsRebuild("incremental");
    expect(sync.changedFiles).toBe(700);
    expect(synced.filter((row) => row.path.startsWith("reference_bulk_"))).toHaveLength(700);
    expect(synced.history.filter((change) => change.path.startsWith("reference_bulk_"))).toHaveLength(700);
  });

  it("a read during a long catch-up serves the commit the read model has at once, says so, and the new commit once it lands", async () => {
    // An outside push that edits one memory and removes another: the diff's rows replaced and deleted in batches.
    await syncReadModel(config, db);
    const before = await readRecordedCommit(db);
    const clone = path.join(root, `catch-up-${counter++}`);
    execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
    await writeFile(path.join(clone, "projects", PROJECT, "reference_bulk_1.md"), memory("Bulk one, edited", "Checkout bulk memory edited by a script"));
    execFileSync("git", ["-C", clone, "rm", "-q", `projects/${PROJECT}/reference_bulk_2.md`]);
    execFileSync("git", ["-C", clone, "add", "."]);
    execFileSync("git", ["-C", clone, "-c", "user.name=Outside Script", "-c", "user.email=script@example.invalid", "commit", "-qm", "edit and remove"]);
    execFileSync("git", ["-C", clone, "push", "-q", "origin", "HEAD:main"]);
    const pushed = storeGit("rev-parse", "main");

    // Reads that may not wait (TEAMMEM_CATCH_UP_WAIT_MS=0) get the rows of the recorded commit.
    const impatient = { ...config, catchUpWaitMs: 0 };
    await refreshStore(impatient, { force: true });
    expect(await ensureReadModel(impatient, db)).toEqual({ commit: before });
    expect(readModelCatchUp(impatient)).toMatchObject({ recorded: before });
    // The catch-up went on behind the read; a later read finds it landed.
    await expect.poll(async () => (await ensureReadModel(impatient, db)).commit, { timeout: 20_000 }).toBe(pushed);
    expect(readModelCatchUp(impatient)).toBeNull();
    const caughtUp = await rows();
    expect(caughtUp.find((row) => row.path === "reference_bulk_1.md")).toMatchObject({ name: "Bulk one, edited", changedBy: "Outside Script" });
    expect(caughtUp.some((row) => row.path === "reference_bulk_2.md")).toBe(false);
    await rebuildReadModel(config, db);
    expect(await rows()).toEqual(caughtUp);
  });

  it("rebuilds when the store's history was rewritten, and never keeps rows of files that are gone", async () => {
    const before = storeGit("rev-parse", "main");
    const clone = path.join(root, `rewrite-${counter++}`);
    execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
    execFileSync("git", ["-C", clone, "rm", "-q", `projects/${PROJECT}/reference_outside.md`]);
    execFileSync("git", ["-C", clone, "-c", "user.name=Admin", "-c", "user.email=admin@example.invalid", "commit", "-q", "--amend", "-m", "rewritten"]);
    execFileSync("git", ["-C", clone, "push", "-q", "--force", "origin", "HEAD:main"]);
    expect(storeGit("rev-parse", "main")).not.toBe(before);
    const { synced } = await expectSyncEqualsRebuild("rebuild");
    expect(synced.some((row) => row.path === "reference_outside.md")).toBe(false);
  });

  it("serves the Memories page as the file scan did: same rows, order, pages and counts", async () => {
    await syncReadModel(config, db);
    // The project as a folder, each file's mtime its last commit time: what the page scanned before
    // (without the file whose name holds a credential: teammem leaves that one out).
    const dir = path.join(root, `as-files-${counter++}`);
    for (const file of (await readProjectFiles(config, PROJECT)).filter((entry) => entry.path === "MEMORY.md" || isMemoryFile(entry.path))) {
      await mkdir(path.dirname(path.join(dir, file.path)), { recursive: true });
      await writeFile(path.join(dir, file.path), file.text);
      if (file.updatedAt) await utimes(path.join(dir, file.path), file.updatedAt, file.updatedAt);
    }
    const now = new Date();
    // Index orphans are reported on the team index page (checked against the read model), not per row.
    const scanned = (await loadMemoryRows(dir, now)).rows.map((row) => ({ ...row, findings: row.findings.filter((finding) => finding.rule !== "index-orphan") }));
    for (const filters of [{}, { type: "feedback" as const }, { age: "over-30" as const }, { finding: "any" }, { sort: "oldest" as const }, { type: "project" as const, age: "month" as const }]) {
      const all = filterMemories(scanned, filters);
      const page = await queryMemoryRows(db, { projectId: PROJECT, filters, page: 2, pageSize: 7, now });
      expect(page.matching, JSON.stringify(filters)).toBe(all.length);
      // Page 2 of 7 rows, or the last page when there are fewer (the page number is clamped).
      const first = (Math.min(2, Math.max(1, Math.ceil(all.length / 7))) - 1) * 7;
      const expected = all.slice(first, first + 7);
      expect(page.rows.map((row) => row.path), JSON.stringify(filters)).toEqual(expected.map((row) => row.path));
      expect(page.rows.map((row) => [row.name, row.type, row.ageText, row.findings.map((finding) => finding.rule)])).toEqual(
        expected.map((row) => [row.name, row.type, row.ageText, row.findings.map((finding) => finding.rule)]),
      );
    }
    const counts = (await queryMemoryRows(db, { projectId: PROJECT, filters: {}, page: 1, pageSize: 25, now })).counts;
    const byType: Record<string, number> = {};
    for (const row of scanned) byType[row.type ?? "untyped"] = (byType[row.type ?? "untyped"] ?? 0) + 1;
    expect(counts.byType).toEqual(byType);
    expect(counts.withFindings).toBe(scanned.filter((row) => row.findings.length > 0).length);
  });
});
