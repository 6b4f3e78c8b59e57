import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "../helpers/call-route";
import { demoToken, setUpDemoWithToken } from "../helpers/demo-token";

/**
 * "Approve all clean" offers a lead only what the server lets her approve: not a proposal she
 * rewrote while she is the project's only lead (four eyes), which the bulk route refuses inside a
 * 200 answer; a member's clean proposal she did not touch is offered.
 */
const PROJECT = "acme-checkout";

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;
let unique = 0;

const memory = (topic: string) =>
  `---\nname: Bulk ${topic} ${++unique}\ndescription: Quokka ${topic} xylophone ${unique} for the narwhal rollout\ntype: project\n---\nThe ${topic} wombat ${unique} rule applies to narwhal ${unique} only.\n**Why:** ${topic}.\n**How to apply:** ${topic}.\n`;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-bulk-clean-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "review-bulk-clean-password";
  const lenaToken = await setUpDemoWithToken("lena@acme.example", { name: "bulk", projectIds: [PROJECT] });
  const omarToken = await demoToken("omar@acme.example", { name: "bulk", projectIds: [PROJECT] });
  const { getConfig, getDatabase } = await import("@/app/_server/context");
  const db = getDatabase();
  const lena = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
  return { config: getConfig(), db, lena, lenaToken, omarToken };
}

type Answer = { proposal: { id: string }; results: { proposalId: string; error?: { message: string } }[] };
const post = (handler: unknown, init: { path: string; params: Record<string, string>; body: unknown; token: string }) => callRoute<Answer>(handler, init);

async function propose(content: string): Promise<string> {
  const submit = (await import("@/app/api/projects/[id]/proposals/route")).POST;
  const answer = await post(submit, { path: `/api/projects/${PROJECT}/proposals`, params: { id: PROJECT }, body: { path: `project_bulk_${unique}.md`, content }, token: world.omarToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.proposal.id;
}

describe("Approve all clean", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("leaves out a proposal the only lead rewrote, which the bulk route would refuse, and offers the rest", async () => {
    const { listProposals } = await import("@/lib/review/list-proposals");
    const { selectBulkApprovable } = await import("@/app/review/select-bulk-approvable");
    const revise = (await import("@/app/api/projects/[id]/proposals/[proposalId]/revise/route")).POST;
    const bulk = (await import("@/app/api/projects/[id]/proposals/bulk-approve/route")).POST;

    const untouched = await propose(memory("alpha"));
    const rewritten = await propose(memory("beta"));
    const revised = await post(revise, { path: `/api/projects/${PROJECT}/proposals/${rewritten}/revise`, params: { id: PROJECT, proposalId: rewritten }, body: { content: memory("beta, in production"), note: "clarified" }, token: world.lenaToken });
    expect(revised.status, JSON.stringify(revised.body)).toBe(200);

    // What the server says about the rewritten one, asked directly.
    const refused = await post(bulk, { path: `/api/projects/${PROJECT}/proposals/bulk-approve`, params: { id: PROJECT }, body: { items: [{ proposalId: rewritten, revision: 2 }] }, token: world.lenaToken });
    expect(refused.body.results[0]!.error?.message).toMatch(/You wrote this revision's text/);

    const proposals = await listProposals(world.config, world.db, { projectIds: [PROJECT], states: ["submitted", "in_review"] });
    const offered = (await selectBulkApprovable({ db: world.db, approverId: world.lena.id, ledProjectIds: new Set([PROJECT]), proposals })).map((proposal) => proposal.id);
    expect(offered).toContain(untouched);
    expect(offered).not.toContain(rewritten);
    // Not a project she leads: nothing offered.
    expect(await selectBulkApprovable({ db: world.db, approverId: world.lena.id, ledProjectIds: new Set(), proposals })).toEqual([]);
  });
});
