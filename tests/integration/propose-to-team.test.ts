import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/resolve-caller";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { findTeamCopies } from "@/lib/memories/find-team-copies";
import { listProposeTargets } from "@/lib/memories/list-propose-targets";
import { prepareTeamProposal } from "@/lib/memories/prepare-team-proposal";
import { demoClaudeHome } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";

/**
 * "Propose to team" on the dashboard and the private list's "in team" marks, over the embedded
 * demo: a real store and database, and Omar's Claude home laid out as Claude Code lays it out.
 */
let config: Config;
let db: Db;
let root: string;
let memoryDir: string;
let dropDatabase: (() => Promise<void>) | null = null;
const callers: Record<"omar" | "priya" | "admin", Caller> = {} as never;
const FOLDER = "-home-omar-src-acme-checkout";
const SECRET = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join(""); // built at run time: no literal credential in the repository
// The read-model and membership queries run on both databases; PostgreSQL when CI provides one.
const kinds = [{ kind: "sqlite" as const, enabled: true }, { kind: "postgresql" as const, enabled: TEST_POSTGRES_URL !== null }];

async function buildWorld(kind: "sqlite" | "postgresql") {
  root = await mkdtemp(path.join(os.tmpdir(), `teammem-propose-to-team-${kind}-`));
  const database = kind === "postgresql" ? await createTestDatabase() : null;
  dropDatabase = database?.drop ?? null;
  const dataDir = path.join(root, "data");
  // The demo (team, store, Omar's Claude home) on either database.
  const demo = { TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: demoClaudeHome(dataDir), TEAMMEM_CLAUDE_HOME_OWNER: "omar@acme.example" };
  config = loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_INITIAL_PASSWORD: "propose-password-123", ...demo, ...(database ? { DATABASE_URL: database.url } : {}) }, root);
  await runSetup(config);
  db = createDb(config);
  const caller = async (email: string, isAdmin = false): Promise<Caller> => {
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    return { userId: user.id, email, name: user.name, isAdmin, via: "session", tokenProjectIds: null };
  };
  callers.omar = await caller("omar@acme.example");
  callers.priya = await caller("priya@acme.example");
  callers.admin = await caller(config.adminEmail, true);
  memoryDir = path.join(config.claudeHome!, "projects", FOLDER, "memory");
}

describe.each(kinds)("Propose to team on $kind", ({ kind, enabled }) => {
  beforeAll(async () => {
    if (enabled) await buildWorld(kind);
  }, 120_000);

  afterAll(async () => {
    if (!enabled) return;
    await db?.$disconnect();
    await dropDatabase?.();
    await rm(root, { recursive: true, force: true });
  });

  describe("what Propose to team may send (T2, T3)", () => {
    const prepare = (memoryPath: string) => prepareTeamProposal({ config, caller: callers.omar, folder: FOLDER, memoryPath });

    it.runIf(enabled)("keeps a user memory private and says why", async () => {
      const draft = await prepare("user_role.md");
      expect(draft).toMatchObject({ content: null, type: "user", needsConventionConfirmation: false });
      expect(draft.blockedReason).toContain("stays private and cannot be proposed");
      expect(draft.blockedReason).not.toMatch(/\b[FISRAPXTGC][0-9]{1,2}\b/); // requirement ids are for maintainers, not readers
    });

    it.runIf(enabled)("keeps a memory whose type the server cannot read private too (`type: User`, `type` given twice)", async () => {
      for (const [file, header] of [["user_capital.md", "type: User"], ["user_twice.md", "type: project\ntype: user"]]) {
        await writeFile(path.join(memoryDir, file!), `---\nname: About me\ndescription: my role on the team\n${header}\n---\nI lead payments.\n`);
        const draft = await prepare(file!);
        expect(draft.content).toBeNull();
        expect(draft.blockedReason).toMatch(/cannot be sent as it is.*stays private\)/);
        await rm(path.join(memoryDir, file!));
      }
    });

    it.runIf(enabled)("offers a feedback memory whole, flagged for the lead's convention check", async () => {
      const draft = await prepare("feedback_small_diffs.md");
      expect(draft.content).toBe(await readFile(path.join(memoryDir, "feedback_small_diffs.md"), "utf8"));
      expect(draft).toMatchObject({ type: "feedback", blockedReason: null, needsConventionConfirmation: true });
      expect(await prepare("project_oncall_week.md")).toMatchObject({ type: "project", blockedReason: null, needsConventionConfirmation: false });
    });

    it.runIf(enabled)("does not offer a file holding a credential, and never repeats it", async () => {
      await writeFile(path.join(memoryDir, "reference_deploy_bot.md"), `---\nname: Deploy bot\ndescription: how the deploy bot logs in\ntype: reference\n---\nIts token is ${SECRET}.\n`);
      const draft = await prepare("reference_deploy_bot.md");
      expect(draft.content).toBeNull();
      expect(draft.blockedReason).toContain("credential");
      expect(JSON.stringify(draft)).not.toContain(SECRET.slice(4));
    });

    it.runIf(enabled)("leaves files in team/ to sync", async () => {
      expect((await prepare("team/feedback_real_db_in_tests.md")).blockedReason).toContain("teammem sync");
    });

    it.runIf(enabled)("is only for the owner of the Claude home", async () => {
      await expect(prepareTeamProposal({ config, caller: callers.priya, folder: FOLDER, memoryPath: "feedback_small_diffs.md" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });
  });

  describe("where a private memory may be proposed", () => {
    it.runIf(enabled)("lists the projects the caller may propose to and defaults to the one whose repository names the folder", async () => {
      expect(await listProposeTargets(db, callers.omar, FOLDER)).toEqual({ projects: [{ id: "acme-checkout", name: expect.any(String) }], defaultProjectId: "acme-checkout" });
      await db.project.create({ data: { id: "zeta-web", name: "Aaa Zeta web", remoteUrl: "github.com/acme/zeta-web", repoUrls: JSON.stringify(["github.com/acme/zeta-web"]) } });
      await db.projectMember.create({ data: { projectId: "zeta-web", userId: callers.omar.userId, role: "member" } });
      // Sorted by name, zeta-web comes first; the folder still picks acme-checkout, and a folder of the other checkout picks it.
      const targets = await listProposeTargets(db, callers.omar, FOLDER);
      expect(targets.projects.map((project) => project.id)).toEqual(["zeta-web", "acme-checkout"]);
      expect(targets.defaultProjectId).toBe("acme-checkout");
      expect((await listProposeTargets(db, callers.omar, "-home-omar-src-zeta-web")).defaultProjectId).toBe("zeta-web");
      expect((await listProposeTargets(db, callers.omar, "-home-omar-src-unrelated")).defaultProjectId).toBe("zeta-web");
    });

    it.runIf(enabled)("leaves out projects where the caller is only a viewer", async () => {
      await db.projectMember.create({ data: { projectId: "zeta-web", userId: callers.priya.userId, role: "viewer" } });
      expect((await listProposeTargets(db, callers.priya, null)).projects.map((project) => project.id)).toEqual(["acme-checkout"]);
      expect((await listProposeTargets(db, callers.admin, null)).projects.map((project) => project.id).sort()).toEqual(["acme-checkout", "zeta-web"]);
    });
  });

  describe("private memories already in the team", () => {
    it.runIf(enabled)("marks the same text under any name, and the same name with other text, in projects the caller can see", async () => {
      await copyFile(path.join(memoryDir, "team", "feedback_real_db_in_tests.md"), path.join(memoryDir, "feedback_real_db_copy.md"));
      await writeFile(path.join(memoryDir, "feedback_quarantine_flaky_tests.md"), "---\nname: my take\ndescription: mine\ntype: feedback\n---\nMy own words.\n");
      const paths = ["team/feedback_real_db_in_tests.md", "feedback_real_db_copy.md", "feedback_quarantine_flaky_tests.md", "feedback_small_diffs.md", "missing.md"];
      const copies = await findTeamCopies({ config, db, caller: callers.omar, memoryDir, paths });
      expect(copies.get("team/feedback_real_db_in_tests.md")).toEqual([{ projectId: "acme-checkout", path: "feedback_real_db_in_tests.md", match: "same-content" }]);
      expect(copies.get("feedback_real_db_copy.md")).toEqual([{ projectId: "acme-checkout", path: "feedback_real_db_in_tests.md", match: "same-content" }]);
      expect(copies.get("feedback_quarantine_flaky_tests.md")).toEqual([{ projectId: "acme-checkout", path: "feedback_quarantine_flaky_tests.md", match: "same-path" }]);
      expect(copies.has("feedback_small_diffs.md")).toBe(false);
      expect(copies.has("missing.md")).toBe(false);
      // Someone who cannot see the project is told nothing about it.
      const stranger: Caller = { userId: "nobody", email: "nobody@elsewhere.example", name: "Nobody", isAdmin: false, via: "session", tokenProjectIds: null };
      expect((await findTeamCopies({ config, db, caller: stranger, memoryDir, paths })).size).toBe(0);
    });
  });
});
