import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { updateProject } from "@/lib/projects/update-project";
import { runSetup } from "@/lib/setup/run-setup";
import { loadProjectFreshness } from "@/lib/stale/load-project-freshness";
import { refreshProjectFreshness } from "@/lib/stale/refresh-project-freshness";
import { commitChange } from "@/lib/store/commit-change";

const PROJECT = "acme-checkout";
const LEAD = { userId: "", name: "Lena Lead", email: "lena@acme.example" };
const DAY_MS = 24 * 60 * 60 * 1000;
let root: string;
let config: Config;
let db: Db;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-stale-thresholds-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  LEAD.userId = (await db.user.findUniqueOrThrow({ where: { email: LEAD.email } })).id;
  const identity = { name: LEAD.name, email: LEAD.email };
  const content = "---\nname: Sprint goal\ndescription: What this sprint is about\ntype: project\n---\nThe sprint ships the new checkout page.\n";
  const outcome = await commitChange(config, db, { change: { projectId: PROJECT, path: "project_sprint_goal.md", content, baseBlob: null }, author: identity, committer: identity, subject: "Add project_sprint_goal.md", trailers: {}, onIntent: async () => undefined });
  expect(outcome.status).toBe("committed");
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The sprint note's state and whether it carries the `old` signal, ten days from now. */
async function sprintNoteInTenDays() {
  await refreshProjectFreshness(config, db, PROJECT, { now: new Date(Date.now() + 10 * DAY_MS) });
  const memory = (await loadProjectFreshness(config, db, PROJECT)).memories.find((entry) => entry.path === "project_sprint_goal.md")!;
  return { state: memory.state, isOld: memory.signals.some((signal) => signal.kind === "old") };
}

async function expectInvalid(staleAfterDays: Record<string, number | null>, message: RegExp) {
  const error = await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { staleAfterDays } }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: "INVALID_INPUT", details: { field: "staleAfterDays" } });
  expect((error as AppError).message).toMatch(message);
}

describe("a project's own age limits for staleness", () => {
  it("start from the defaults: a project note is old after 30 days, a feedback rule never", async () => {
    const project = await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: {} });
    expect(project.staleAfterDays).toEqual({ project: 30, reference: 120, feedback: null, untyped: 120 });
    expect(await sprintNoteInTenDays()).toEqual({ state: "fresh", isOld: false });
  });

  it("a lead shortens the limit for project notes: the same note is old at ten days, and the change is audited", async () => {
    const project = await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { staleAfterDays: { project: 7 } } });
    expect(project.staleAfterDays).toEqual({ project: 7, reference: 120, feedback: null, untyped: 120 });
    expect(await sprintNoteInTenDays()).toEqual({ state: "stale", isOld: true });
    const event = await db.auditEvent.findFirst({ where: { action: "project.stale_thresholds_changed", projectId: PROJECT }, orderBy: { at: "desc" } });
    expect(JSON.parse(event!.detail)).toMatchObject({ from: { project: 30 }, to: { project: 7 } });
  });

  it("null means never old; leaving a type out goes back to its default", async () => {
    await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { staleAfterDays: { project: null } } });
    expect(await sprintNoteInTenDays()).toEqual({ state: "fresh", isOld: false });
    const reset = await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { staleAfterDays: {} } });
    expect(reset.staleAfterDays.project).toBe(30);
  });

  it("pages the freshness list stalest first, so an answer stays bounded however many memories there are", async () => {
    await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { staleAfterDays: { project: 7 } } });
    await sprintNoteInTenDays();
    const all = (await loadProjectFreshness(config, db, PROJECT)).memories;
    const first = (await loadProjectFreshness(config, db, PROJECT, { skip: 0, take: 2 })).memories;
    const second = (await loadProjectFreshness(config, db, PROJECT, { skip: 2, take: 2 })).memories;
    expect(all.length).toBeGreaterThan(4);
    expect([...first, ...second].map((memory) => memory.path)).toEqual(all.slice(0, 4).map((memory) => memory.path));
    expect(first[0]!.score).toBe(Math.max(...all.map((memory) => memory.score)));
    await updateProject(config, db, { actor: LEAD, projectId: PROJECT, input: { staleAfterDays: null } });
  });

  it("refuses what is not a limit, naming the field, and changes nothing", async () => {
    await expectInvalid({ user: 5 }, /"user" is not a memory type a project can set/);
    await expectInvalid({ project: 0 }, /staleAfterDays\.project: a whole number of days from 1 to 3650/);
    await expectInvalid({ reference: 2.5 }, /staleAfterDays\.reference/);
    await expectInvalid({ untyped: 99_999 }, /staleAfterDays\.untyped/);
    expect((await db.project.findUniqueOrThrow({ where: { id: PROJECT } })).staleAfterDays).toBeNull();
  });
});
