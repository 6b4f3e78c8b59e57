import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The review rules a lead expects, through the API as a client meets them: four eyes (with the
 * one-lead exception), the source decided by the route, hostile file names refused, the commit
 * shown once a proposal landed, and bulk approval leaving out what needs judgement.
 */
const PASSWORD = "review-rules-password";
const BASE = "http://127.0.0.1:3000";
const PROJECT = "acme-checkout";
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type ProposalJson = { id: string; state: string; source: string; committedCommit: string | null; committedAt: string; proposerRole: string | null; checks: { duplicates: unknown[] } };
type Answer = { proposal: ProposalJson; error: { code: string; message: string }; results: unknown[]; proposals: unknown[] };

let root = "";
let world: Awaited<ReturnType<typeof buildWorld>>;
let unique = 0;

const memory = (topic = `retry budget ${++unique}`) =>
  `---\nname: Rules ${topic}\ndescription: Checkout ${topic} decided for the PayFlow rollout wave ${unique}\ntype: project\n---\nThe ${topic} holds since 2026-11-01.\n**Why:** the vendor throttles.\n**How to apply:** PayFlow calls.\n`;

async function buildWorld() {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-rules-"));
  process.env.TEAMMEM_DATA_DIR = path.join(root, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  await runSetup(loadConfig());
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const { createApiToken } = await import("@/lib/auth/manage-api-tokens");
  const auth = await getAuth();
  const db = getDatabase();
  const sessionOf = async (email: string) => {
    const response = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
    return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
  };
  const lena = await db.user.findUniqueOrThrow({ where: { email: "lena@acme.example" } });
  const omar = await db.user.findUniqueOrThrow({ where: { email: "omar@acme.example" } });
  const tokenOf = async (user: { id: string; email: string; name: string }) =>
    (await createApiToken(db, { userId: user.id, email: user.email, name: user.name, isAdmin: false, via: "session", tokenProjectIds: null }, { name: "rules", projectIds: [PROJECT] })).token;
  return { db, lenaSession: await sessionOf(lena.email), lenaToken: await tokenOf(lena), omarToken: await tokenOf(omar), lena, omar };
}

async function call(handler: unknown, init: { path: string; params: Record<string, string>; method?: string; body?: unknown; token?: string; cookie?: string }) {
  const headers = new Headers({ origin: BASE, "x-forwarded-for": "192.0.2.99" });
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(BASE + init.path, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const response = await (handler as Handler)(request, { params: Promise.resolve(init.params) });
  return { status: response.status, body: (await response.json()) as Answer };
}

const routes = async () => ({
  submit: (await import("@/app/api/projects/[id]/proposals/route")).POST,
  list: (await import("@/app/api/projects/[id]/proposals/route")).GET,
  approve: (await import("@/app/api/projects/[id]/proposals/[proposalId]/approve/route")).POST,
  revise: (await import("@/app/api/projects/[id]/proposals/[proposalId]/revise/route")).POST,
  syncSubmit: (await import("@/app/api/projects/[id]/sync/proposals/route")).POST,
  reject: (await import("@/app/api/projects/[id]/proposals/[proposalId]/reject/route")).POST,
  reopen: (await import("@/app/api/projects/[id]/proposals/[proposalId]/reopen/route")).POST,
  bulk: (await import("@/app/api/projects/[id]/proposals/bulk-approve/route")).POST,
});

async function submitWith(credentials: { token?: string; cookie?: string }, body: Record<string, unknown>) {
  const { submit } = await routes();
  return call(submit, { path: `/api/projects/${PROJECT}/proposals`, params: { id: PROJECT }, body, ...credentials });
}

async function approveAs(token: string, proposalId: string) {
  const { approve } = await routes();
  return call(approve, { path: `/api/projects/${PROJECT}/proposals/${proposalId}/approve`, params: { id: PROJECT, proposalId }, body: { revision: 1 }, token });
}

describe("review rules", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 180_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    await rm(root, { recursive: true, force: true });
  });

  it("four eyes: a lead may not approve their own proposal; a one-lead project may allow it in its settings", async () => {
    const own = await submitWith({ token: world.lenaToken }, { path: `project_rules_${++unique}.md`, content: memory() });
    expect(own.status).toBe(201);
    const alone = await approveAs(world.lenaToken, own.body.proposal.id);
    expect(alone.status).toBe(403);
    expect(alone.body.error.message).toMatch(/only lead: add a second lead, or turn on self-approval/);

    await world.db.project.update({ where: { id: PROJECT }, data: { allowSelfApproval: true } });
    const allowed = await approveAs(world.lenaToken, own.body.proposal.id);
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.proposal.state).toBe("committed");

    // A second lead exists: four eyes applies even with the setting on.
    await world.db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: world.omar.id } }, data: { role: "lead" } });
    try {
      const second = await submitWith({ token: world.lenaToken }, { path: `project_rules_${++unique}.md`, content: memory() });
      const refused = await approveAs(world.lenaToken, second.body.proposal.id);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/another lead must approve it \(Omar/);
      const byOther = await approveAs(world.omarToken, second.body.proposal.id);
      expect(byOther.body.proposal.state).toBe("committed");
      expect(byOther.body.proposal.proposerRole).toBe("lead");
    } finally {
      await world.db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: world.omar.id } }, data: { role: "member" } });
      await world.db.project.update({ where: { id: PROJECT }, data: { allowSelfApproval: false } });
    }
  });

  it("four eyes with two leads, one the proposer and one the reviser: neither is pointed at the other, who may not approve either", async () => {
    const { revise } = await routes();
    await world.db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: world.omar.id } }, data: { role: "lead" } });
    try {
      const submitted = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory() });
      const id = submitted.body.proposal.id;
      await call(revise, { path: `/api/projects/${PROJECT}/proposals/${id}/revise`, params: { id: PROJECT, proposalId: id }, body: { content: memory("rule Lena rewrote") }, token: world.lenaToken });
      for (const token of [world.omarToken, world.lenaToken]) {
        const refused = await call((await routes()).approve, { path: `/api/projects/${PROJECT}/proposals/${id}/approve`, params: { id: PROJECT, proposalId: id }, body: { revision: 2 }, token });
        expect(refused.status).toBe(403);
        expect(refused.body.error.message).not.toMatch(/another lead must approve/);
        expect(refused.body.error.message).toMatch(/no lead of the project may approve it: add a lead who did not write it, or reject it/);
      }
    } finally {
      await world.db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: world.omar.id } }, data: { role: "member" } });
    }
  });

  it("four eyes: a lead who rewrote a member's proposal may not approve her own text; a redaction is not a rewrite", async () => {
    const { revise, approve } = await routes();
    const submitted = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory() });
    const id = submitted.body.proposal.id;
    const rewritten = await call(revise, { path: `/api/projects/${PROJECT}/proposals/${id}/revise`, params: { id: PROJECT, proposalId: id }, body: { content: memory("rule Lena wrote alone") }, token: world.lenaToken });
    expect(rewritten.status, JSON.stringify(rewritten.body)).toBe(200);
    const refused = await call(approve, { path: `/api/projects/${PROJECT}/proposals/${id}/approve`, params: { id: PROJECT, proposalId: id }, body: { revision: 2 }, token: world.lenaToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/You wrote this revision's text/);
    expect((await world.db.proposal.findUniqueOrThrow({ where: { id } })).state).not.toBe("committed");

    // A member's proposal holding a token: the lead redacts it and may approve the rest.
    const { redact } = { redact: (await import("@/app/api/projects/[id]/proposals/[proposalId]/redact/route")).POST };
    const token = ["ghp", "_", "M2nB6cD1fG5hJ0kS2aE4yR7mK2pQ9xL4vT8e"].join("");
    const withSecret = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory(`deploy bot ${token}`) });
    const secretId = withSecret.body.proposal.id;
    const redacted = await call(redact, { path: `/api/projects/${PROJECT}/proposals/${secretId}/redact`, params: { id: PROJECT, proposalId: secretId }, token: world.lenaToken });
    expect(redacted.status, JSON.stringify(redacted.body)).toBe(200);
    const approved = await call(approve, { path: `/api/projects/${PROJECT}/proposals/${secretId}/approve`, params: { id: PROJECT, proposalId: secretId }, body: { revision: 2 }, token: world.lenaToken });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.proposal.state).toBe("committed");
  });

  it("a proposal's baseBlob must be a version of that very file: another file's or the manifest's text is never read through it", async () => {
    const { loadConfig } = await import("@/lib/config");
    const { execFileSync } = await import("node:child_process");
    const clone = loadConfig().storeCloneDir;
    const { MAIN } = await import("@/lib/store/read-store");
    const blobOf = (spec: string) => execFileSync("git", ["-C", clone, "rev-parse", `${MAIN}:${spec}`]).toString().trim();
    const path1 = `project_rules_${++unique}.md`;
    const first = await submitWith({ token: world.omarToken }, { path: path1, content: memory() });
    await approveAs(world.lenaToken, first.body.proposal.id);
    const original = blobOf(`projects/${PROJECT}/${path1}`);
    const second = await submitWith({ token: world.omarToken }, { path: path1, content: memory("second version"), baseBlob: original });
    await call((await routes()).approve, { path: `/api/projects/${PROJECT}/proposals/${second.body.proposal.id}/approve`, params: { id: PROJECT, proposalId: second.body.proposal.id }, body: { revision: 1 }, token: world.lenaToken });
    expect(blobOf(`projects/${PROJECT}/${path1}`)).not.toBe(original);

    // An earlier version of the file is a valid base (a member who synced before the last change).
    const fromOld = await submitWith({ token: world.omarToken }, { path: path1, content: memory("third version"), baseBlob: original });
    expect(fromOld.status, JSON.stringify(fromOld.body)).toBe(201);
    for (const foreign of [blobOf("teammem.json"), blobOf(`projects/${PROJECT}/MEMORY.md`)]) {
      const refused = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory(), baseBlob: foreign });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^baseBlob: no version of project_rules_\d+\.md in the team store has this id/);
    }
  });

  it("a project keeps a lead: the only lead cannot demote or remove herself; with a second lead she can step down", async () => {
    const members = (await import("@/app/api/projects/[id]/members/route")).POST;
    const remove = (await import("@/app/api/projects/[id]/members/[userId]/route")).DELETE;
    const setRole = (email: string, role: string) => call(members, { path: `/api/projects/${PROJECT}/members`, params: { id: PROJECT }, body: { email, role }, token: world.lenaToken });
    const demoted = await setRole("lena@acme.example", "member");
    expect(demoted.status).toBe(409);
    expect(demoted.body.error.message).toMatch(/only lead/);
    const removed = await call(remove, { path: `/api/projects/${PROJECT}/members/${world.lena.id}`, params: { id: PROJECT, userId: world.lena.id }, method: "DELETE", token: world.lenaToken });
    expect(removed.status).toBe(409);
    expect(await world.db.projectMember.findUniqueOrThrow({ where: { projectId_userId: { projectId: PROJECT, userId: world.lena.id } } })).toMatchObject({ role: "lead" });

    expect((await setRole("omar@acme.example", "lead")).status).toBe(200);
    try {
      expect((await setRole("lena@acme.example", "member")).status).toBe(200);
    } finally {
      await world.db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: world.lena.id } }, data: { role: "lead" } });
      await world.db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: world.omar.id } }, data: { role: "member" } });
    }
  });

  it("a committed proposal names its commit and when it landed, and its proposer's role", async () => {
    const submitted = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory() });
    const approved = await approveAs(world.lenaToken, submitted.body.proposal.id);
    expect(approved.body.proposal.committedCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(Date.parse(approved.body.proposal.committedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(approved.body.proposal.proposerRole).toBe("member");
  });

  it("the source is the route's: a token proposes as member, the dashboard's session as dashboard, a claimed source is refused", async () => {
    const viaToken = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory() });
    expect(viaToken.body.proposal.source).toBe("member");
    const viaSession = await submitWith({ cookie: world.lenaSession }, { path: `project_rules_${++unique}.md`, content: memory() });
    expect(viaSession.body.proposal.source).toBe("dashboard");
    const claimed = await submitWith({ token: world.omarToken }, { path: `project_rules_${++unique}.md`, content: memory(), source: "extraction" });
    expect(claimed.status).toBe(400);
    expect(claimed.body.error.message).toMatch(/^source: decided by the server/);
  });

  it("refuses file names with bidirectional overrides, zero-width or control characters and look-alikes, naming the problem", async () => {
    const cases: [string, RegExp][] = [
      ["invoice\u202Edm.md", /U\+202E/],
      ["feed\u200Bback.md", /U\+200B/],
      ["tab\tname.md", /control character/],
      ["ｆｅｅｄｂａｃｋ.md", /write it as "feedback\.md"/],
    ];
    for (const [name, message] of cases) {
      const answer = await submitWith({ token: world.omarToken }, { path: name, content: memory() });
      expect(answer.status, name).toBe(400);
      expect(answer.body.error.message).toMatch(/^path: /);
      expect(answer.body.error.message).toMatch(message);
    }
    const nested = await submitWith({ token: world.omarToken }, { path: `payments/project_rules_${++unique}.md`, content: memory() });
    expect(nested.status).toBe(201);
  });

  it("the content limit is 100 KB in UTF-8 bytes on every route that takes memory text, with one message naming it", async () => {
    const { revise, syncSubmit } = await routes();
    const LIMIT = 100 * 1024;
    // A memory padded to an exact size in bytes: one multi-byte character counts for its bytes.
    const sized = (bytes: number, pad = "a") => {
      const head = memory();
      const room = bytes - Buffer.byteLength(head);
      return head + pad.repeat(Math.floor(room / Buffer.byteLength(pad))) + "a".repeat(room % Buffer.byteLength(pad));
    };
    const TOO_LARGE = /^content: a memory may be at most 100 KB \(102,400 bytes of UTF-8, the team store's limit\); split it into two memories/;
    const sync = (content: string) =>
      call(syncSubmit, {
        path: `/api/projects/${PROJECT}/sync/proposals`,
        params: { id: PROJECT },
        token: world.omarToken,
        body: { path: `project_sized_${++unique}.md`, content, baseBlob: null, idempotencyKey: `sized-key-${unique}-${Date.now()}`, provenance: { checkout: "/src/acme", baseCommit: null, clientVersion: "test" } },
      });
    expect(Buffer.byteLength(sized(LIMIT, "é"))).toBe(LIMIT);

    const atLimit = await submitWith({ token: world.omarToken }, { path: `project_sized_${++unique}.md`, content: sized(LIMIT) });
    expect(atLimit.status, JSON.stringify(atLimit.body.error)).toBe(201);
    const over = await submitWith({ token: world.omarToken }, { path: `project_sized_${++unique}.md`, content: sized(LIMIT + 1) });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(TOO_LARGE);
    // Fewer than 100,000 characters, more than 102,400 bytes.
    const multiByte = await submitWith({ token: world.omarToken }, { path: `project_sized_${++unique}.md`, content: sized(LIMIT + 1, "é") });
    expect(multiByte.body.error.message).toMatch(TOO_LARGE);

    expect((await sync(sized(LIMIT))).status).toBe(201);
    const syncOver = await sync(sized(LIMIT + 1));
    expect(syncOver.status).toBe(400);
    expect(syncOver.body.error.message).toMatch(TOO_LARGE);

    const revised = (content: string) =>
      call(revise, { path: `/api/projects/${PROJECT}/proposals/${atLimit.body.proposal.id}/revise`, params: { id: PROJECT, proposalId: atLimit.body.proposal.id }, body: { content }, token: world.lenaToken });
    expect((await revised(sized(LIMIT + 1))).body.error.message).toMatch(TOO_LARGE);
    expect((await revised(sized(LIMIT, "é"))).status).toBe(200);
  });

  it("refuses a new file whose name differs from a store memory's or a waiting proposal's in letter case only, on both submit routes", async () => {
    const { syncSubmit } = await routes();
    const n = ++unique;
    const stored = await submitWith({ token: world.omarToken }, { path: `project_Retry_${n}.md`, content: memory() });
    expect((await approveAs(world.lenaToken, stored.body.proposal.id)).body.proposal.state).toBe("committed");
    const lower = await submitWith({ token: world.omarToken }, { path: `project_retry_${n}.md`, content: memory() });
    expect(lower.status).toBe(400);
    expect(lower.body.error.code).toBe("INVALID_INPUT");
    expect(lower.body.error.message).toBe(
      `path: project_Retry_${n}.md is in the team store, and project_retry_${n}.md differs from it in letter case only: a macOS or Windows checkout cannot hold both. Propose the change to project_Retry_${n}.md, or choose another name.`,
    );
    const viaSync = await call(syncSubmit, {
      path: `/api/projects/${PROJECT}/sync/proposals`,
      params: { id: PROJECT },
      token: world.omarToken,
      body: { path: `PROJECT_RETRY_${n}.md`, content: memory(), baseBlob: null, idempotencyKey: `case-twin-key-${n}-${Date.now()}`, provenance: { checkout: "/src/acme", baseCommit: null, clientVersion: "test" } },
    });
    expect(viaSync.status).toBe(400);
    expect(viaSync.body.error.message.startsWith(`path: project_Retry_${n}.md is in the team store`)).toBe(true);
    // The file itself, spelled as the store spells it, is an edit.
    expect((await submitWith({ token: world.omarToken }, { path: `project_Retry_${n}.md`, content: memory() })).status).toBe(201);

    const waiting = await submitWith({ token: world.omarToken }, { path: `reference_Queue_${n}.md`, content: memory() });
    expect(waiting.status).toBe(201);
    const twin = await submitWith({ token: world.lenaToken }, { path: `reference_queue_${n}.md`, content: memory() });
    expect(twin.status).toBe(400);
    expect(twin.body.error.message.startsWith(`path: a proposal for reference_Queue_${n}.md waits for review, and reference_queue_${n}.md differs`)).toBe(true);
  });

  it("refuses a memory inside a folder that is a memory file, and a file named as a folder of memories, on submit", async () => {
    const n = ++unique;
    const file = await submitWith({ token: world.omarToken }, { path: `project_ledger_${n}.md`, content: memory() });
    expect((await approveAs(world.lenaToken, file.body.proposal.id)).body.proposal.state).toBe("committed");
    const inside = await submitWith({ token: world.omarToken }, { path: `project_ledger_${n}.md/inner.md`, content: memory() });
    expect([inside.status, inside.body.error.message]).toEqual([400, `path: project_ledger_${n}.md is a memory file in the team store, so project_ledger_${n}.md/inner.md cannot be inside it as in a folder. Choose another name.`]);
    const folder = await submitWith({ token: world.omarToken }, { path: `notes_${n}.md/deploys.md`, content: memory() });
    expect((await approveAs(world.lenaToken, folder.body.proposal.id)).body.proposal.state).toBe("committed");
    const asFile = await submitWith({ token: world.omarToken }, { path: `notes_${n}.md`, content: memory() });
    expect([asFile.status, asFile.body.error.message]).toEqual([400, `path: notes_${n}.md is a folder of memories in the team store, so no memory file may take its name. Choose another name.`]);
    // The same names in other letters: one name on a macOS or Windows disk.
    const insideTwin = await submitWith({ token: world.omarToken }, { path: `PROJECT_LEDGER_${n}.md/inner.md`, content: memory() });
    expect([insideTwin.status, insideTwin.body.error.message]).toEqual([400, `path: project_ledger_${n}.md is a memory file in the team store, so PROJECT_LEDGER_${n}.md/inner.md cannot be inside PROJECT_LEDGER_${n}.md (the same name in other letters on macOS and Windows) as in a folder. Choose another name.`]);
    const fileTwin = await submitWith({ token: world.omarToken }, { path: `Notes_${n}.md`, content: memory() });
    expect([fileTwin.status, fileTwin.body.error.message]).toEqual([400, `path: notes_${n}.md is a folder of memories in the team store, so no memory file may take its name in other letters (Notes_${n}.md: one name on macOS and Windows). Choose another name.`]);
  });

  it("two case twins waiting at once (one reopened after the other was submitted): the second approval is refused, naming the file that landed", async () => {
    const { reject, reopen } = await routes();
    const n = ++unique;
    const at = (proposalId: string, action: string) => ({ path: `/api/projects/${PROJECT}/proposals/${proposalId}/${action}`, params: { id: PROJECT, proposalId }, token: world.lenaToken });
    const first = await submitWith({ token: world.omarToken }, { path: `reference_Pair_${n}.md`, content: memory() });
    expect((await call(reject, { ...at(first.body.proposal.id, "reject"), body: { reason: "later" } })).status).toBe(200);
    // Nothing of that name waits now, so its lower-case twin is accepted...
    const second = await submitWith({ token: world.omarToken }, { path: `reference_pair_${n}.md`, content: memory() });
    expect(second.status).toBe(201);
    // ...and the first comes back to the queue beside it.
    expect((await call(reopen, { ...at(first.body.proposal.id, "reopen"), body: {} })).status).toBe(200);
    expect((await approveAs(world.lenaToken, second.body.proposal.id)).body.proposal.state).toBe("committed");
    const refused = await approveAs(world.lenaToken, first.body.proposal.id);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message.startsWith(`path: reference_pair_${n}.md is in the team store, and reference_Pair_${n}.md differs from it in letter case only`)).toBe(true);
  });

  it("two case twins approved at the same moment: one lands, the other is refused or ends conflicted naming it, and the store holds one", async () => {
    const { reject, reopen } = await routes();
    const n = ++unique;
    const at = (proposalId: string, action: string) => ({ path: `/api/projects/${PROJECT}/proposals/${proposalId}/${action}`, params: { id: PROJECT, proposalId }, token: world.lenaToken });
    const first = await submitWith({ token: world.omarToken }, { path: `reference_Race_${n}.md`, content: memory() });
    await call(reject, { ...at(first.body.proposal.id, "reject"), body: { reason: "later" } });
    const second = await submitWith({ token: world.omarToken }, { path: `reference_race_${n}.md`, content: memory() });
    await call(reopen, { ...at(first.body.proposal.id, "reopen"), body: {} });
    // Both pass the checks before either reaches the store; the store lease decides.
    const answers = await Promise.all([approveAs(world.lenaToken, first.body.proposal.id), approveAs(world.lenaToken, second.body.proposal.id)]);
    const landed = answers.filter((answer) => answer.body.proposal?.state === "committed");
    expect(landed).toHaveLength(1);
    const other = answers.find((answer) => answer !== landed[0])!;
    const landedPath = landed[0] === answers[0] ? `reference_Race_${n}.md` : `reference_race_${n}.md`;
    if (other.status === 400) expect(other.body.error.message).toContain(`${landedPath} is in the team store`);
    else {
      expect(other.body.proposal.state).toBe("conflicted");
      expect((other.body.proposal as unknown as { conflict: { twin: string } }).conflict.twin).toBe(landedPath);
    }
    const { execFileSync } = await import("node:child_process");
    const { loadConfig } = await import("@/lib/config");
    const names = execFileSync("git", ["--git-dir", loadConfig().storeRemote, "ls-tree", "--name-only", `main:projects/${PROJECT}/`], { encoding: "utf8" }).split("\n");
    expect(names.filter((name) => name.toLowerCase() === `reference_race_${n}.md`)).toEqual([landedPath]);
  });

  it("bulk approval and the clean filter leave out a possible duplicate and a pending team-convention confirmation", async () => {
    const { bulk, list } = await routes();
    const topic = `settlement cutoff ${++unique}`;
    const original = await submitWith({ token: world.omarToken }, { path: `project_cutoff_${unique}.md`, content: memory(topic) });
    await approveAs(world.lenaToken, original.body.proposal.id);
    const duplicate = await submitWith({ token: world.omarToken }, { path: `project_cutoff_again_${unique}.md`, content: memory(topic) });
    expect(duplicate.body.proposal.checks.duplicates.length).toBeGreaterThan(0);
    const feedback = await submitWith({ token: world.omarToken }, {
      path: `feedback_rules_${++unique}.md`,
      content: `---\nname: Squash merges ${unique}\ndescription: Merge checkout pull requests with squash ${unique}\ntype: feedback\n---\nSquash-merge checkout PRs.\n**Why:** one revert per change.\n**How to apply:** every PR.\n`,
    });
    const clean = await submitWith({ token: world.omarToken }, {
      path: `reference_rules_${++unique}.md`,
      content: `---\nname: Courier label printer ${unique}\ndescription: Warehouse label printer queue lives in Zebra Cloud under the courier-${unique} workspace\ntype: reference\n---\nZebra Cloud, workspace courier-${unique}.\n`,
    });
    expect(clean.body.proposal.checks.duplicates).toEqual([]);

    const listed = await call(list, { method: "GET", path: `/api/projects/${PROJECT}/proposals?check=clean`, params: { id: PROJECT }, token: world.lenaToken });
    const cleanIds = (listed.body.proposals as { id: string }[]).map((proposal) => proposal.id);
    expect(cleanIds).toContain(clean.body.proposal.id);
    expect(cleanIds).not.toContain(duplicate.body.proposal.id);
    expect(cleanIds).not.toContain(feedback.body.proposal.id);
    // A filter value the queue does not know is refused, naming it, instead of answering everything.
    for (const query of ["state=Committed", "state=committed&state=bogus", "source=cli", "check=dirty", "check=clean&check=blocked"]) {
      const refused = await call(list, { method: "GET", path: `/api/projects/${PROJECT}/proposals?${query}`, params: { id: PROJECT }, token: world.lenaToken });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.message, query).toMatch(new RegExp(`^${query.split("=")[0]}`));
    }

    const items = [duplicate, feedback, clean].map((answer) => ({ proposalId: answer.body.proposal.id, revision: 1 }));
    const result = await call(bulk, { path: `/api/projects/${PROJECT}/proposals/bulk-approve`, params: { id: PROJECT }, body: { items }, token: world.lenaToken });
    const byId = new Map((result.body.results as { proposalId: string; state?: string; error?: { code: string } }[]).map((entry) => [entry.proposalId, entry]));
    expect(byId.get(clean.body.proposal.id)!.state).toBe("committed");
    expect(byId.get(duplicate.body.proposal.id)!.error!.code).toBe("CONFLICT");
    expect(byId.get(feedback.body.proposal.id)!.error).toBeDefined();
  });
});
