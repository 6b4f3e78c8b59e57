import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/resolve-caller";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { listAttentionItems } from "@/lib/overview/list-attention-items";
import { loadProjectOverview } from "@/lib/overview/load-project-overview";
import { summarizeOpenProposals } from "@/lib/overview/summarize-open-proposals";
import { lastWeekStarts } from "@/lib/overview/summarize-review";
import { createProject } from "@/lib/projects/create-project";
import { runSetup } from "@/lib/setup/run-setup";
import { refreshStore } from "@/lib/store/read-store";
import { createTestDatabase, TEST_POSTGRES_URL } from "../helpers/postgres";

/**
 * The Overview's numbers on a real store and a real database (SQLite, and PostgreSQL when
 * TEAMMEM_TEST_POSTGRES_URL is set): memories with known commit times pushed into the store,
 * proposals and approvals at known times, recall events selecting known files. Each expected
 * number is worked out by hand from the seed below, not by the code under test.
 */
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const LAB = "overview-lab";
const EMPTY = "overview-empty";

// One memory in each age band (0–7, 8–30, 31–90, 91–180, 181–365, over a year).
// Distinct words each, so the duplicate finder does not pair them up.
const MEMORIES = [
  { file: "feedback_run_contract_tests.md", type: "feedback", ageDays: 2, text: "Run the payment contract suite before merging adapter changes" },
  { file: "reference_grafana_board.md", type: "reference", ageDays: 10, text: "Latency dashboards live on the observability board" },
  { file: "feedback_never_force_push.md", type: "feedback", ageDays: 40, text: "Nobody rewrites shared history on the default branch" },
  { file: "project_ledger_migration.md", type: "project", ageDays: 100, text: "Ledger tables move to the accounting cluster this quarter" },
  { file: "untyped_note.md", type: null, ageDays: 200, text: "Office wifi password rotates monthly, ask facilities" },
  { file: "project_freeze_2025.md", type: "project", ageDays: 400, text: "Holiday change freeze covers every checkout deploy" },
];

type World = { root: string; config: Config; db: Db; callers: Record<"lead" | "member" | "viewer" | "admin" | "stranger", Caller>; now: Date; drop?: () => Promise<void> };

async function buildWorld(kind: "sqlite" | "postgresql"): Promise<World> {
  const root = await mkdtemp(path.join(os.tmpdir(), `teammem-overview-${kind}-`));
  const database = kind === "postgresql" ? await createTestDatabase() : null;
  const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "", ...(database ? { DATABASE_URL: database.url } : {}) }, root);
  await runSetup(config);
  const db = createDb(config);
  const callers = {} as World["callers"];
  for (const who of ["lead", "member", "viewer", "admin", "stranger"] as const) {
    const user = await db.user.create({ data: { id: `user-${who}`, name: `The ${who}`, email: `${who}@lab.example`, isAdmin: who === "admin" } });
    callers[who] = { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, via: "session", tokenProjectIds: null };
  }
  const actor = { userId: callers.admin.userId, name: "The admin", email: "admin@lab.example" };
  await createProject(config, db, { actor, input: { id: LAB, name: "Overview Lab" } });
  await createProject(config, db, { actor, input: { id: EMPTY, name: "Overview Empty" } });
  for (const [projectId, role] of [[LAB, "lead"], [LAB, "member"], [LAB, "viewer"], [EMPTY, "lead"]] as const) {
    await db.projectMember.create({ data: { projectId, userId: callers[role].userId, role } });
  }
  const now = new Date();
  await pushMemories(root, config, now);
  await seedProposals(db, callers, now);
  await seedRecallEvents(db, now);
  return { root, config, db, callers, now, drop: database?.drop };
}

/** Commits each memory from an outside clone with its own author date, as a member's push would. */
async function pushMemories(root: string, config: Config, now: Date): Promise<void> {
  const clone = path.join(root, "outside-clone");
  execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
  for (const memory of [...MEMORIES].sort((a, b) => b.ageDays - a.ageDays)) {
    const typeLine = memory.type ? `type: ${memory.type}\n` : "";
    await writeFile(path.join(clone, "projects", LAB, memory.file), `---\nname: ${memory.file.replace(".md", "")}\ndescription: ${memory.text}\n${typeLine}---\n${memory.text}.\n`);
    const date = new Date(now.getTime() - memory.ageDays * DAY - HOUR).toISOString();
    execFileSync("git", ["-C", clone, "add", "."]);
    execFileSync("git", ["-C", clone, "-c", "user.name=Outside", "-c", "user.email=outside@lab.example", "commit", "-qm", `add ${memory.file}`], { env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  }
  execFileSync("git", ["-C", clone, "push", "-q", "origin", "HEAD:main"]);
  await refreshStore(config, { force: true });
}

type SeedProposal = { source: string; state: string; createdDaysAgo: number; approvedAfterHours?: number };
const PROPOSALS: SeedProposal[] = [
  { source: "member", state: "submitted", createdDaysAgo: 5 },
  { source: "sync", state: "in_review", createdDaysAgo: 2 },
  { source: "extraction", state: "blocked_secret", createdDaysAgo: 1 },
  { source: "extraction", state: "committed", createdDaysAgo: 10, approvedAfterHours: 2 },
  { source: "member", state: "committed", createdDaysAgo: 20, approvedAfterHours: 6 },
  { source: "extraction", state: "approved", createdDaysAgo: 3, approvedAfterHours: 4 },
  // Approved 40 days ago: outside the 30-day median.
  { source: "sync", state: "committed", createdDaysAgo: 45, approvedAfterHours: 24 * 5 },
  { source: "extraction", state: "rejected", createdDaysAgo: 6 },
  { source: "extraction", state: "rejected", createdDaysAgo: 12 },
  { source: "member", state: "rejected", createdDaysAgo: 15 },
  { source: "dashboard", state: "withdrawn", createdDaysAgo: 0 },
];

async function seedProposals(db: Db, callers: World["callers"], now: Date): Promise<void> {
  let index = 0;
  for (const seed of PROPOSALS) {
    const createdAt = new Date(now.getTime() - seed.createdDaysAgo * DAY);
    const proposal = await db.proposal.create({
      data: { projectId: LAB, path: `project_seed_${++index}.md`, source: seed.source, state: seed.state, proposerId: callers.member.userId, createdAt },
    });
    if (seed.approvedAfterHours === undefined) continue;
    await db.proposalEvent.create({
      data: { proposalId: proposal.id, actorId: callers.lead.userId, fromState: "submitted", toState: "approved", revision: 1, contentHash: "x", at: new Date(createdAt.getTime() + seed.approvedAfterHours * HOUR) },
    });
  }
}

async function seedRecallEvents(db: Db, now: Date): Promise<void> {
  const events = [
    { daysAgo: 0, selected: ["feedback_run_contract_tests.md", "project_ledger_migration.md"] },
    { daysAgo: 0, selected: ["feedback_run_contract_tests.md"] },
    { daysAgo: 3, selected: ["reference_grafana_board.md"] },
    // Older than 30 days: neither counted nor saving project_freeze_2025.md from "not recalled".
    { daysAgo: 40, selected: ["project_freeze_2025.md"] },
    // A lead's try on the Recall page gave no agent anything: not a call, not "most recalled", and
    // untyped_note.md and feedback_never_force_push.md stay "not recalled".
    { daysAgo: 0, selected: ["untyped_note.md", "feedback_never_force_push.md", "feedback_run_contract_tests.md"], source: "playground" },
  ];
  for (const event of events) {
    await db.recallEvent.create({
      data: { projectId: LAB, userId: "user-member", queryHash: "h", selector: "local", selected: JSON.stringify(event.selected), latencyMs: 5, at: new Date(now.getTime() - event.daysAgo * DAY), source: event.source },
    });
  }
}

const kinds = [{ kind: "sqlite" as const, enabled: true }, { kind: "postgresql" as const, enabled: TEST_POSTGRES_URL !== null }];

describe.each(kinds)("Overview aggregates on $kind", ({ kind, enabled }) => {
  let world: World;
  beforeAll(async () => {
    if (enabled) world = await buildWorld(kind);
  }, 120_000);
  afterAll(async () => {
    if (!world) return;
    await world.db.$disconnect();
    await world.drop?.();
    await rm(world.root, { recursive: true, force: true });
  });
  const overviewFor = (who: keyof World["callers"], projectId = LAB) => loadProjectOverview({ config: world.config, db: world.db, caller: world.callers[who], projectId, now: world.now });

  it.skipIf(!enabled)("counts memories by type and by the age of their last commit", async () => {
    const { memories } = await overviewFor("lead");
    expect(memories.total).toBe(6);
    expect(memories.byType).toEqual([{ type: "feedback", count: 2 }, { type: "project", count: 2 }, { type: "reference", count: 1 }, { type: "untyped", count: 1 }]);
    expect(memories.ageBuckets.map((bucket) => [bucket.label, bucket.count])).toEqual([
      ["0–7 days", 1], ["8–30 days", 1], ["31–90 days", 1], ["91–180 days", 1], ["181–365 days", 1], ["over a year", 1],
    ]);
  });

  it.skipIf(!enabled)("summarises the review queue: open, oldest waiting, median time to approve, weeks by source, decisions per source", async () => {
    const { review } = await overviewFor("viewer");
    expect(review.openCount).toBe(3);
    expect(review.openByState.map((row) => row.state).sort()).toEqual(["blocked_secret", "in_review", "submitted"]);
    expect(review.oldestOpen?.path).toBe("project_seed_1.md");
    expect(review.oldestOpen?.waitingDays).toBe(5);
    expect(review.approvalsLast30Days).toBe(3);
    expect(review.medianHoursToApprove).toBeCloseTo(4, 5); // 2 h, 4 h, 6 h
    expect(review.decisionsBySource).toEqual([
      { source: "member", approved: 1, rejected: 1 },
      { source: "sync", approved: 1, rejected: 0 },
      { source: "extraction", approved: 2, rejected: 2 },
    ]);
    const firstWeek = lastWeekStarts(world.now, 8)[0]!;
    const inWindow = PROPOSALS.filter((seed) => world.now.getTime() - seed.createdDaysAgo * DAY >= firstWeek.getTime());
    for (const source of ["member", "sync", "extraction", "dashboard"] as const) {
      expect(review.proposalsPerWeek.reduce((sum, week) => sum + week[source], 0), source).toBe(inWindow.filter((seed) => seed.source === source).length);
    }
    expect(review.proposalsPerWeek).toHaveLength(8);
    expect(review.proposalsPerWeek.at(-1)!.dashboard).toBe(1); // created just now: this week
  });

  it.skipIf(!enabled)("gives a lead recall per day, most recalled and not recalled, counted in SQL", async () => {
    const { recall, recallHiddenReason } = await overviewFor("lead");
    expect(recallHiddenReason).toBeNull();
    expect(recall!.callsPerDay).toHaveLength(30);
    expect(recall!.callsLast30Days).toBe(3);
    expect(recall!.callsPerDay.at(-1)).toEqual({ day: world.now.toISOString().slice(0, 10), calls: 2 });
    expect(recall!.callsPerDay.find((day) => day.day === new Date(world.now.getTime() - 3 * DAY).toISOString().slice(0, 10))?.calls).toBe(1);
    expect(recall!.mostRecalled).toEqual([
      { path: "feedback_run_contract_tests.md", name: "feedback_run_contract_tests", count: 2 },
      { path: "project_ledger_migration.md", name: "project_ledger_migration", count: 1 },
      { path: "reference_grafana_board.md", name: "reference_grafana_board", count: 1 },
    ]);
    expect(recall!.notRecalledCount).toBe(3);
    expect(recall!.notRecalled.map((memory) => memory.path)).toEqual(["project_freeze_2025.md", "untyped_note.md", "feedback_never_force_push.md"]);
  });

  it.skipIf(!enabled)("hides recall from viewers and members, and the project from strangers", async () => {
    for (const who of ["viewer", "member"] as const) {
      const overview = await overviewFor(who);
      expect(overview.recall, who).toBeNull();
      expect(overview.recallHiddenReason, who).toMatch(/leads and admins/);
      expect(overview.review.openCount, who).toBe(3);
    }
    await expect(overviewFor("stranger")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(overviewFor("lead", "no-such-project")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it.skipIf(!enabled)("shows an admin with no role in the project its recall, as GET recall-events does", async () => {
    const { recall, recallHiddenReason } = await overviewFor("admin");
    expect(recallHiddenReason).toBeNull();
    expect(recall!.callsLast30Days).toBe(3);
  });

  it.skipIf(!enabled)("counts freshness by type and stale memories by reason, and says what needs attention", async () => {
    const overview = await overviewFor("lead");
    const { freshness } = overview;
    if (freshness.status !== "checked") throw new Error(`freshness was not checked: ${freshness.reason}`);
    // No code repository is configured: the age and date checks ran, the citations could not.
    expect(freshness.codeRepoProblem).toBeTruthy();
    // Project notes rot after 30 days, untyped ones after 120, feedback rules never by age.
    expect(freshness.totals.stale, JSON.stringify(freshness.topStale)).toBe(3);
    expect(freshness.staleByReason).toContainEqual({ kind: "old", count: 3 });
    // project_freeze_2025.md and untyped_note.md: the Recall page's try that chose the latter gave no agent anything.
    expect(freshness.staleByReason).toContainEqual({ kind: "never-recalled", count: 2 });
    expect(freshness.topStale.map((memory) => memory.path).sort()).toEqual(["project_freeze_2025.md", "project_ledger_migration.md", "untyped_note.md"]);
    expect(freshness.byTypeAndState.find((row) => row.type === "feedback")?.stale).toBe(0);
    expect(Object.values(freshness.totals).reduce((sum, count) => sum + count, 0)).toBe(6);

    const items = listAttentionItems(overview);
    expect(items[0]).toMatchObject({ tone: "act", text: "3 proposals are open for review, the oldest waiting 5 days.", href: `/review?project=${LAB}` });
    expect(items.map((item) => item.text)).toContain("1 proposal is blocked by a secret.");
    expect(items.map((item) => item.text)).toContain("3 memories are stale.");
    expect(items.some((item) => item.text.startsWith("Code citations not checked"))).toBe(true);
  });

  it.skipIf(!enabled)("shows a project with no memories, proposals or recall as empty, not as broken", async () => {
    const overview = await overviewFor("lead", EMPTY);
    expect(overview.memories).toMatchObject({ total: 0, byType: [], lastChangedAt: null });
    expect(overview.memories.ageBuckets.every((bucket) => bucket.count === 0)).toBe(true);
    expect(overview.review).toMatchObject({ openCount: 0, oldestOpen: null, medianHoursToApprove: null, approvalsLast30Days: 0, decisionsBySource: [] });
    expect(overview.recall).toMatchObject({ callsLast30Days: 0, mostRecalled: [], notRecalledCount: 0, notRecalled: [] });
    expect(listAttentionItems(overview).map((item) => item.text)).toContain("No team memories yet: members propose them, a lead approves them.");
  });

  it.skipIf(!enabled)("counts open proposals per project in one query", async () => {
    const counts = await summarizeOpenProposals(world.db, [LAB, EMPTY]);
    expect(counts.get(LAB)).toMatchObject({ openCount: 3 });
    expect(new Date(counts.get(LAB)!.oldestOpenAt!).getTime()).toBe(world.now.getTime() - 5 * DAY);
    expect(counts.has(EMPTY)).toBe(false);
  });
});
