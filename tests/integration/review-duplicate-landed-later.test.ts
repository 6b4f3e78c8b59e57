import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoToken, setUpDemoWithToken } from "../helpers/demo-token";

/**
 * A copy of a waiting proposal that enters the store first: the proposal's page, the API and the
 * queue's check=clean show it as soon as it lands, and an approval that would commit the copy
 * unseen is refused with 409 naming it (docs/review.md, "Checks").
 */
const BASE = "http://127.0.0.1:3000";
const PROJECT = "acme-checkout";
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Duplicate = { path: string; similarity: number };
type ProposalJson = { id: string; path: string; state: string; checks: { duplicates: Duplicate[] } };
type Answer = { proposal: ProposalJson; proposals: ProposalJson[]; error: { code: string; message: string } };

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;
let unique = 0;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-dup-later-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = "dup-later-password";
  const token = { name: "dup-later", projectIds: [PROJECT] };
  const lenaToken = await setUpDemoWithToken("lena@acme.example", token);
  const { loadConfig } = await import("@/lib/config");
  return { lenaToken, omarToken: await demoToken("omar@acme.example", token), storeRemote: loadConfig().storeRemote };
}

async function call(handler: unknown, init: { path: string; params: Record<string, string>; method?: string; body?: unknown; token: string }) {
  const headers = new Headers({ origin: BASE, "x-forwarded-for": "192.0.2.98", authorization: `Bearer ${init.token}` });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(BASE + init.path, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const response = await (handler as Handler)(request, { params: Promise.resolve(init.params) });
  return { status: response.status, body: (await response.json()) as Answer };
}

const routes = async () => ({
  submit: (await import("@/app/api/projects/[id]/proposals/route")).POST,
  list: (await import("@/app/api/projects/[id]/proposals/route")).GET,
  read: (await import("@/app/api/projects/[id]/proposals/[proposalId]/route")).GET,
  approve: (await import("@/app/api/projects/[id]/proposals/[proposalId]/approve/route")).POST,
});

const submit = async (file: string, content: string) => (await call((await routes()).submit, { path: `/api/projects/${PROJECT}/proposals`, params: { id: PROJECT }, body: { path: file, content }, token: world.omarToken })).body.proposal;
const approve = async (proposalId: string) => call((await routes()).approve, { path: `/api/projects/${PROJECT}/proposals/${proposalId}/approve`, params: { id: PROJECT, proposalId }, body: { revision: 1 }, token: world.lenaToken });
const read = async (proposalId: string) => (await call((await routes()).read, { method: "GET", path: `/api/projects/${PROJECT}/proposals/${proposalId}`, params: { id: PROJECT, proposalId }, token: world.lenaToken })).body.proposal;
const cleanIds = async () => (await call((await routes()).list, { method: "GET", path: `/api/projects/${PROJECT}/proposals?check=clean`, params: { id: PROJECT }, token: world.lenaToken })).body.proposals.map((proposal) => proposal.id);
const storeFiles = () => execFileSync("git", ["--git-dir", world.storeRemote, "ls-tree", "--name-only", `main:projects/${PROJECT}/`], { encoding: "utf8" }).split("\n");

/** Two identical memories under different names: A waits, its copy B is approved first. */
async function proposeTwice(content: string) {
  const tag = `${++unique}${Date.now().toString(36)}`;
  const first = await submit(`reference_waiting_${tag}.md`, content);
  const copy = await submit(`reference_copy_${tag}.md`, content);
  expect(first.checks.duplicates).toEqual([]);
  expect(await cleanIds()).toContain(first.id);
  expect((await approve(copy.id)).body.proposal.state).toBe("committed");
  return { first, copy };
}

describe("a duplicate that lands after a proposal was submitted", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 60_000);
  afterAll(async () => {
    const { getDatabase } = await import("@/app/_server/context");
    await getDatabase().$disconnect();
    await rm(root, { recursive: true, force: true });
  });

  it("shows on the proposal's page and takes it off check=clean before anyone approves it", async () => {
    const { first, copy } = await proposeTwice(
      "---\nname: Nightly exports bucket\ndescription: The reconciliation job writes nightly exports into the object-store bucket recon-exports\ntype: reference\n---\nNightly exports land in bucket recon-exports, kept 14 days.\nOwners: team ledger; ask in #ledger before changing retention.\n",
    );

    const page = await read(first.id);
    expect(page.checks.duplicates).toEqual([expect.objectContaining({ path: copy.path, similarity: 1 })]);
    expect(await cleanIds()).not.toContain(first.id);

    // The lead has been shown the copy: approving keeps both, as for any near-duplicate.
    expect((await approve(first.id)).body.proposal.state).toBe("committed");
  });

  it("stops an approval that would commit the copy unseen, naming it, and shows it from then on", async () => {
    const { first, copy } = await proposeTwice(
      "---\nname: Warehouse label printer queue\ndescription: Zebra Cloud holds the courier label printer queue under the fulfilment workspace\ntype: reference\n---\nLabel printers: Zebra Cloud, workspace fulfilment, queue courier-main.\nAsk the warehouse desk for access.\n",
    );

    const refused = await approve(first.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("CONFLICT");
    expect(refused.body.error.message).toContain(`${copy.path} (`);
    expect(refused.body.error.message).toContain("similarity 1.00");
    expect(refused.body.error.message).toMatch(/look at the proposal again/i);
    expect(storeFiles()).not.toContain(first.path);
    const page = await read(first.id);
    expect(page.state).toBe("submitted");
    expect(page.checks.duplicates.map((duplicate) => duplicate.path)).toEqual([copy.path]);
    expect(await cleanIds()).not.toContain(first.id);

    expect((await approve(first.id)).body.proposal.state).toBe("committed");
    expect(storeFiles()).toContain(first.path);
  });
});
