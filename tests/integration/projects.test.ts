import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "@/lib/auth/manage-api-tokens";
import { listMemberships } from "@/lib/auth/manage-users";
import { listVisibleProjectIds } from "@/lib/auth/permissions";
import type { Caller } from "@/lib/auth/resolve-caller";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertProjectAcceptsProposals } from "@/lib/projects/assert-project-accepts-proposals";
import { createProject } from "@/lib/projects/create-project";
import { getProject } from "@/lib/projects/get-project";
import { listProjects } from "@/lib/projects/list-projects";
import type { ProjectActor } from "@/lib/projects/project-entry";
import { updateProject } from "@/lib/projects/update-project";
import { approveProposal } from "@/lib/review/approve-proposal";
import { submitProposal } from "@/lib/review/submit-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { memoryText } from "../unit/review/memory-fixtures";

/** The embedded demo (a real bare store, its clone, a SQLite file) in a temporary data folder. */
let root: string;
let config: Config;
let db: Db;
let admin: ProjectActor;
let lena: ProjectActor;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-projects-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  const actor = async (email: string) => {
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    return { userId: user.id, name: user.name, email: user.email };
  };
  admin = await actor("admin@teammem.local");
  lena = await actor("lena@acme.example");
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Reads the real bare store, not the server's clone. */
const storeGit = (...args: string[]) => execFileSync("git", ["--git-dir", config.storeRemote, ...args], { encoding: "utf8" });
const mainHead = () => storeGit("rev-parse", "main").trim();
const commitCount = () => Number(storeGit("rev-list", "--count", "main").trim());
type ManifestEntry = { id: string; name: string; remote?: string; repoUrls?: string[]; archived?: boolean };
const manifestEntry = (id: string): ManifestEntry | undefined =>
  (JSON.parse(storeGit("show", "main:teammem.json")) as { projects: ManifestEntry[] }).projects.find((project) => project.id === id);
const callerOf = (actor: ProjectActor, isAdmin: boolean): Caller => ({ ...actor, isAdmin, via: "session", tokenProjectIds: null });

async function expectCode(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

describe("project administration", () => {
  it("creates a project in ONE store commit: its teammem.json entry and its folder, plus its lead, its row and an audit event", async () => {
    const before = commitCount();
    const project = await createProject(config, db, {
      actor: admin,
      input: { name: "Acme Payments", repoUrls: ["git@github.com:acme/payments.git", "https://deploy:tok3n@gitlab.example.com/acme/payments-mirror/"], leadEmail: "lena@acme.example" },
    });
    expect(project).toMatchObject({ id: "acme-payments", name: "Acme Payments", remote: "github.com/acme/payments", memoryCount: 0, archivedAt: null, allowSelfApproval: false, leadCount: 1 });
    expect(project.repoUrls).toEqual(["github.com/acme/payments", "gitlab.example.com/acme/payments-mirror"]);

    expect(commitCount()).toBe(before + 1);
    expect(manifestEntry("acme-payments")).toEqual({ id: "acme-payments", name: "Acme Payments", remote: "github.com/acme/payments", repoUrls: project.repoUrls });
    expect(manifestEntry("acme-checkout")?.name).toBe("Acme Checkout"); // the other projects are untouched
    expect(storeGit("ls-tree", "-r", "--name-only", "main", "projects/acme-payments").trim()).toBe("projects/acme-payments/MEMORY.md");
    const [author, body] = storeGit("log", "-1", "--format=%an <%ae>%x00%B", "main").split("\0");
    expect(author).toBe(`${admin.name} <admin@teammem.local>`);
    expect(body).toMatch(/^Create project Acme Payments \(acme-payments\)\n\n/);
    expect(body).toContain("Project-Id: acme-payments");
    expect(storeGit("show", "--stat", "--format=", "main")).toMatch(/teammem\.json/);
    expect(storeGit("show", "main:teammem.json")).not.toContain("tok3n");

    const lead = await db.projectMember.findFirstOrThrow({ where: { projectId: "acme-payments" }, include: { user: true } });
    expect([lead.user.email, lead.role]).toEqual(["lena@acme.example", "lead"]);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { projectId: "acme-payments", action: "project.created" } });
    expect(audit.actor).toBe("admin@teammem.local");
    expect(JSON.parse(audit.detail)).toMatchObject({ lead: "lena@acme.example", commit: mainHead(), adoptedFromStore: false });

    // An empty project answers with zero memories and is listed for its lead, with counts.
    expect(await getProject(config, db, "acme-payments")).toMatchObject({ project: { id: "acme-payments", memoryCount: 0 }, memories: [] });
    const listed = await listProjects({ config, db, caller: callerOf(lena, false) });
    expect(listed.map((item) => [item.id, item.memoryCount])).toEqual([["acme-checkout", 30], ["acme-payments", 0]]);
  });

  it("refuses a duplicate id with CONFLICT (given or derived) and bad fields with INVALID_INPUT naming the field, committing nothing", async () => {
    await createProject(config, db, { actor: admin, input: { name: "Ledger", repoUrls: ["https://github.com/acme/ledger"] } });
    const head = mainHead();
    const explicit = await expectCode(createProject(config, db, { actor: admin, input: { id: "acme-ledger", name: "Another" } }), "CONFLICT");
    expect(explicit.message).toBe('A project with the id "acme-ledger" already exists; choose another id.');
    await expectCode(createProject(config, db, { actor: admin, input: { name: "Same repo", repoUrls: ["git@github.com:acme/ledger.git"] } }), "CONFLICT");
    await expectCode(createProject(config, db, { actor: admin, input: { id: "acme-checkout", name: "Demo again" } }), "CONFLICT");

    const bad: [Parameters<typeof createProject>[2]["input"], RegExp][] = [
      [{ name: "X", repoUrls: ["github.com/acme/ok", "not a url"] }, /^repoUrls\.1: "not a url" is not a repository URL/],
      [{ name: "   " }, /^name: /],
      [{ id: "Bad Id!", name: "X" }, /^id: /],
      [{ id: "fine-id", name: "X", leadEmail: "nobody@acme.example" }, /^leadEmail: there is no account for nobody@acme\.example/],
    ];
    for (const [input, message] of bad) {
      expect((await expectCode(createProject(config, db, { actor: admin, input }), "INVALID_INPUT")).message).toMatch(message);
    }
    expect(mainHead()).toBe(head);
    expect(await db.project.findUnique({ where: { id: "fine-id" } })).toBeNull();
  });

  it("renames and sets repository URLs in one commit to teammem.json; an edit that changes nothing commits nothing", async () => {
    await createProject(config, db, { actor: admin, input: { id: "renamed", name: "Old name" } });
    const before = commitCount();
    const updated = await updateProject(config, db, { actor: lena, projectId: "renamed", input: { name: "New name", repoUrls: ["https://GitHub.com/acme/renamed.git"] } });
    expect(updated).toMatchObject({ name: "New name", repoUrls: ["github.com/acme/renamed"], remote: "github.com/acme/renamed" });
    expect(commitCount()).toBe(before + 1);
    expect(manifestEntry("renamed")).toEqual({ id: "renamed", name: "New name", remote: "github.com/acme/renamed", repoUrls: ["github.com/acme/renamed"] });
    const [author, subject] = storeGit("log", "-1", "--format=%an%x00%s", "main").split("\0");
    expect(author).toBe("Lena Park");
    expect(subject!.trim()).toBe("Rename project renamed to New name; Set repositories of project renamed: github.com/acme/renamed");
    const actions = (await db.auditEvent.findMany({ where: { projectId: "renamed" }, orderBy: { at: "asc" } })).map((event) => event.action);
    expect(actions).toEqual(["project.created", "project.renamed", "project.repositories_changed"]);

    await updateProject(config, db, { actor: lena, projectId: "renamed", input: { name: " New name ", repoUrls: ["git@github.com:acme/renamed"] } });
    expect(commitCount()).toBe(before + 1);
    // Self-approval is a review rule kept in the database: audited, not committed.
    expect((await updateProject(config, db, { actor: admin, projectId: "renamed", input: { allowSelfApproval: true } })).allowSelfApproval).toBe(true);
    expect(commitCount()).toBe(before + 1);
    expect(await db.auditEvent.count({ where: { projectId: "renamed", action: "project.self_approval_changed" } })).toBe(1);
    await expectCode(updateProject(config, db, { actor: admin, projectId: "renamed", input: { repoUrls: ["ftp://x.example.com/a"] } }), "INVALID_INPUT");
    await expectCode(updateProject(config, db, { actor: admin, projectId: "no-such-project", input: { name: "X" } }), "NOT_FOUND");
  });

  it("archiving records archived in teammem.json, hides the project from lists and refuses proposals; unarchiving opens it again", async () => {
    await createProject(config, db, { actor: admin, input: { id: "to-archive", name: "Old Service", leadEmail: "lena@acme.example" } });
    await expect(assertProjectAcceptsProposals(db, "to-archive")).resolves.toBeUndefined();

    const archived = await updateProject(config, db, { actor: lena, projectId: "to-archive", input: { archived: true } });
    expect(archived.archivedAt).toBeInstanceOf(Date);
    expect(manifestEntry("to-archive")).toMatchObject({ archived: true });
    expect(storeGit("log", "-1", "--format=%s", "main").trim()).toBe("Archive project Old Service (to-archive)");
    const refusal = await expectCode(assertProjectAcceptsProposals(db, "to-archive"), "CONFLICT");
    expect(refusal.message).toBe("Old Service (to-archive) is archived; unarchive it on its settings page to propose again.");
    await expectCode(assertProjectAcceptsProposals(db, "never-existed"), "NOT_FOUND");
    // submitProposal asks the same question, so a member's proposal is refused with that message.
    const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
    const refused = await expectCode(submitProposal(config, db, { projectId: "to-archive", path: "project_late.md", content: memoryText({ type: "project" }), source: "member", proposerId: omar.id }), "CONFLICT");
    expect(refused.message).toMatch(/is archived; unarchive it on its settings page to propose again/);

    expect(await listVisibleProjectIds(db, callerOf(lena, false))).not.toContain("to-archive");
    expect(await listVisibleProjectIds(db, callerOf(admin, true))).not.toContain("to-archive");
    // Nor is it in the lead's own lists (Settings, Review, Recall, whoami) or offered to a token.
    expect((await listMemberships(db, callerOf(lena, false))).map((membership) => membership.projectId)).not.toContain("to-archive");
    const scoped = await expectCode(createApiToken(db, callerOf(lena, false), { name: "cli", projectIds: ["to-archive"] }), "INVALID_INPUT");
    expect(scoped.message).toBe("Archived, so left out of tokens: to-archive (unarchive it on its settings page first).");
    const withArchived = await listProjects({ config, db, caller: callerOf(admin, true), includeArchived: true });
    expect(withArchived.find((project) => project.id === "to-archive")?.archivedAt).toBeInstanceOf(Date);
    // Its page stays reachable by id (settings, history).
    expect((await getProject(config, db, "to-archive")).project.name).toBe("Old Service");

    await updateProject(config, db, { actor: admin, projectId: "to-archive", input: { archived: false } });
    expect(manifestEntry("to-archive")?.archived).toBeUndefined();
    await expect(assertProjectAcceptsProposals(db, "to-archive")).resolves.toBeUndefined();
    expect(await listVisibleProjectIds(db, callerOf(lena, false))).toContain("to-archive");
    const actions = (await db.auditEvent.findMany({ where: { projectId: "to-archive" }, orderBy: { at: "asc" } })).map((event) => event.action);
    expect(actions).toEqual(["project.created", "project.archived", "project.unarchived"]);
  });

  it("a new project takes proposals: the first approved memory lands in its folder, and teammem.json keeps every project's fields", async () => {
    await createProject(config, db, { actor: admin, input: { name: "Fresh", repoUrls: ["github.com/acme/fresh"], leadEmail: "lena@acme.example" } });
    await updateProject(config, db, { actor: admin, projectId: "to-archive", input: { archived: true } });
    // A project the database has but teammem.json does not: its first approval adds it to the manifest.
    await db.project.create({ data: { id: "db-only", name: "DB only", members: { create: { userId: lena.userId, role: "lead" } } } });
    const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
    await db.projectMember.create({ data: { projectId: "acme-fresh", userId: omar.id, role: "member" } });
    await db.projectMember.create({ data: { projectId: "db-only", userId: omar.id, role: "member" } });

    for (const projectId of ["acme-fresh", "db-only"]) {
      const content = memoryText({ name: `First memory of ${projectId}`, description: `The first decision recorded for ${projectId}`, type: "project", body: "Decided 2026-11-02.\n**Why:** a reason.\n**How to apply:** always.\n" });
      const proposal = await submitProposal(config, db, { projectId, path: "project_first.md", content, source: "member", proposerId: omar.id });
      expect((await approveProposal(config, db, { proposalId: proposal.id, approverId: lena.userId, revision: 1 })).state).toBe("committed");
      expect(storeGit("show", `main:projects/${projectId}/project_first.md`)).toBe(content);
      expect(storeGit("show", `main:projects/${projectId}/MEMORY.md`)).toContain("project_first.md");
    }
    expect(manifestEntry("acme-fresh")).toEqual({ id: "acme-fresh", name: "Fresh", remote: "github.com/acme/fresh", repoUrls: ["github.com/acme/fresh"] });
    expect(manifestEntry("to-archive")).toMatchObject({ archived: true });
    expect(manifestEntry("db-only")).toEqual({ id: "db-only", name: "DB only" });
    expect((await getProject(config, db, "acme-fresh")).memories.map((memory) => memory.path)).toEqual(["project_first.md"]);
  });

  it("projects created at the same time each get their commit, on a linear history", async () => {
    const before = commitCount();
    await Promise.all(["parallel-a", "parallel-b", "parallel-c"].map((id) => createProject(config, db, { actor: admin, input: { id, name: id } })));
    expect(commitCount()).toBe(before + 3);
    expect(storeGit("rev-list", "--merges", "main").trim()).toBe("");
    for (const id of ["parallel-a", "parallel-b", "parallel-c"]) expect(manifestEntry(id)?.name).toBe(id);
  });

  it("adopts a project that teammem.json already lists but this database does not (a shared store)", async () => {
    await createProject(config, db, { actor: admin, input: { id: "shared", name: "Shared", repoUrls: ["github.com/acme/shared"] } });
    await db.project.delete({ where: { id: "shared" } }); // as if another installation had made it
    const before = commitCount();
    const adopted = await createProject(config, db, { actor: admin, input: { id: "shared", name: "Shared" } });
    expect(adopted.repoUrls).toEqual(["github.com/acme/shared"]);
    expect(commitCount()).toBe(before); // the store already says exactly this
  });

  it("creates the first project of an empty team store (no demo): the store's first commit", async () => {
    const emptyRoot = await mkdtemp(path.join(os.tmpdir(), "teammem-projects-empty-"));
    const emptyConfig = loadConfig({ TEAMMEM_DATA_DIR: path.join(emptyRoot, "data"), TEAMMEM_DEMO: "off", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, emptyRoot);
    await runSetup(emptyConfig);
    const emptyDb = createDb(emptyConfig);
    try {
      const owner = await emptyDb.user.findUniqueOrThrow({ where: { email: "admin@teammem.local" } });
      const caller = callerOf({ userId: owner.id, name: owner.name, email: owner.email }, true);
      expect(await listProjects({ config: emptyConfig, db: emptyDb, caller })).toEqual([]);
      await createProject(emptyConfig, emptyDb, { actor: caller, input: { name: "First", repoUrls: ["https://github.com/acme/first"] } });
      const git = (...args: string[]) => execFileSync("git", ["--git-dir", emptyConfig.storeRemote, ...args], { encoding: "utf8" });
      expect(git("rev-list", "--count", "main").trim()).toBe("1");
      expect(JSON.parse(git("show", "main:teammem.json"))).toEqual({ formatVersion: 1, projects: [{ id: "acme-first", name: "First", remote: "github.com/acme/first", repoUrls: ["github.com/acme/first"] }] });
      expect((await listProjects({ config: emptyConfig, db: emptyDb, caller })).map((project) => [project.id, project.memoryCount])).toEqual([["acme-first", 0]]);
    } finally {
      await emptyDb.$disconnect();
      await rm(emptyRoot, { recursive: true, force: true });
    }
  });
});
