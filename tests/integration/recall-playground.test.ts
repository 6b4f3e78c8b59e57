import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "../helpers/call-route";
import { setUpDemoWithToken } from "../helpers/demo-token";

/**
 * A lead trying prompts on the Recall page gives no agent anything: the try is logged apart, left
 * out of GET recall-events ("what agents were given"). Only the dashboard's session may mark a
 * try; an agent's token claiming one is still logged as an agent's recall.
 */
const PROJECT = "acme-checkout";

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-recall-playground-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "recall-playground-password";
  const token = await setUpDemoWithToken("lena@acme.example", { name: "agent", projectIds: [PROJECT] });
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const signedIn = await (await getAuth()).api.signInEmail({ body: { email: "lena@acme.example", password: "recall-playground-password" }, asResponse: true });
  const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  return { db: getDatabase(), cookie, token };
}

type Answer = { events: { id: string; selected: string[] }[]; nextBefore: string | null; error?: { message: string } };
const call = (handler: unknown, init: { path: string; method: string; body?: unknown; token?: string; cookie?: string }) => callRoute<Answer>(handler, { ...init, params: { id: PROJECT } });

const recall = async (credentials: { token?: string; cookie?: string }, body: Record<string, unknown>) =>
  call((await import("@/app/api/projects/[id]/recall/route")).POST, { path: `/api/projects/${PROJECT}/recall`, method: "POST", body, ...credentials });
const agentLog = async () =>
  (await call((await import("@/app/api/projects/[id]/recall-events/route")).GET, { path: `/api/projects/${PROJECT}/recall-events`, method: "GET", cookie: world.cookie })).body.events;

const QUERY = "our integration tests mock the database, should they hit a real database instead?";

describe("recall tries on the dashboard", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("logs a try from the Recall page apart from what agents were given", async () => {
    const { listRecallEvents } = await import("@/lib/recall/recall-project-memories");
    const before = (await agentLog()).length;
    expect((await recall({ cookie: world.cookie }, { query: QUERY, playground: true })).status).toBe(200);
    expect(await agentLog()).toHaveLength(before);
    const tries = await listRecallEvents(world.db, PROJECT, { source: "playground" });
    expect(tries).toHaveLength(1);
    expect(tries[0]!.selected).toContain("feedback_real_db_in_tests.md");
  });

  it("logs an agent's recall as one, also when its token claims to be a try", async () => {
    const before = (await agentLog()).length;
    expect((await recall({ token: world.token }, { query: QUERY })).status).toBe(200);
    expect((await recall({ token: world.token }, { query: QUERY, playground: true })).status).toBe(200);
    expect(await agentLog()).toHaveLength(before + 2);
  });

  it("pages the log newest first: each page follows the last event of the one before, and nothing is listed twice or left out", async () => {
    const handler = (await import("@/app/api/projects/[id]/recall-events/route")).GET;
    const page = (query: string) => call(handler, { path: `/api/projects/${PROJECT}/recall-events?${query}`, method: "GET", cookie: world.cookie });
    for (let index = 0; index < 5; index++) await recall({ token: world.token }, { query: `${QUERY} (${index})` });
    const all = (await page("limit=200")).body.events.map((event) => event.id);
    expect(all.length).toBeGreaterThanOrEqual(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await page(`limit=2${cursor ? `&before=${cursor}` : ""}`);
      expect(answer.status).toBe(200);
      expect(answer.body.events.length).toBeLessThanOrEqual(2);
      seen.push(...answer.body.events.map((event) => event.id));
      cursor = answer.body.nextBefore;
    } while (cursor);
    expect(seen).toEqual(all);
    const wrong = await page("limit=0");
    expect([wrong.status, wrong.body.error?.message]).toEqual([400, "limit: a whole number from 1 to 200."]);
    expect((await page("before=not-a-cursor")).status).toBe(400);
  });
});
