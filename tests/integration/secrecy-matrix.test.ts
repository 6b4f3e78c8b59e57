import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiRoutes } from "../helpers/api-routes";
import { TranscriptBuilder } from "../helpers/transcript-lines";

/**
 * The secrecy matrix: every API route × every kind of caller, with secrets planted everywhere a
 * response could carry them (proposal content, name and description, provenance, revision notes,
 * rejection reasons, hostile paths, a memory pushed into the store from elsewhere, the demo's
 * credential-bearing proposal). No response body, success or error, may hold any part of a secret
 * value longer than the preview's last four characters. The route list is read from app/api, so a
 * new route without a row here fails.
 */
type Identity = "none" | "viewer" | "proposer" | "otherMember" | "lead" | "leadOfOther" | "admin";
const IDENTITIES: Identity[] = ["none", "viewer", "proposer", "otherMember", "lead", "leadOfOther", "admin"];
const PASSWORD = "secrecy-password-123";
const BASE = "http://127.0.0.1:3000";
const PROJECT = "acme-checkout";

// Built at run time so no literal credential sits in the repository. `core` is the part that is
// secret: public prefixes (ghp_, AKIA, sk_live_…) may legitimately appear in a preview.
const SECRETS = [
  { kind: "github", value: ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join(""), prefix: "ghp_" },
  { kind: "aws-id", value: ["AKIA", "QW3RT5YU7IO9PA2S"].join(""), prefix: "AKIA" },
  { kind: "aws-secret", value: ["h7Gk2L9pQ4", "xW8mZ3nB6vC1", "fD5jR0tY2uI4oP7aS9dF"].join(""), prefix: "" },
  { kind: "stripe", value: ["sk", "_live_", "51HqLmN2eZvKYlo2C8xW7pQ4rT6y"].join(""), prefix: "sk_live_" },
  { kind: "url-password", value: ["Zq8", "vR2pL7xW", "k3M9"].join("-"), prefix: "" },
  { kind: "slack", value: ["xoxb", "-2847561930274-5830194726385-", "Hq7XkR2mWp9ZtL4vN8cB3yJd"].join(""), prefix: "xoxb-" },
];
const secretBlock = () =>
  [
    `GitHub token for the deploy bot: ${SECRETS[0]!.value}`,
    `aws_access_key_id = ${SECRETS[1]!.value}`,
    `aws_secret_access_key = ${SECRETS[2]!.value}`,
    `Stripe: ${SECRETS[3]!.value}`,
    `Connect with postgres://app:${SECRETS[4]!.value}@db.internal:5432/app`,
    `Slack bot: ${SECRETS[5]!.value}`,
  ].join("\n");

let unique = 0;
const secretMemory = () =>
  `---\nname: Deploy bot ${SECRETS[0]!.value} ${++unique}\ndescription: How the deploy bot reaches Stripe with ${SECRETS[3]!.value}\ntype: project\n---\nThe deploy bot posts to #deploys.\n${secretBlock()}\n**Why:** releases need it.\n**How to apply:** every deploy.\n`;
const cleanMemory = () => `---\nname: Secrecy clean ${++unique}\ndescription: Checkout retry budget decision ${unique}\ntype: project\n---\nRetry budget is ${unique} per minute since 2026-11-01.\n**Why:** the vendor throttles.\n**How to apply:** PayFlow calls.\n`;

type Handler = ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) & Record<symbol, unknown>;
type Call = { path: string; params?: Record<string, string>; body?: unknown };

let worldDir = "";
let world: Awaited<ReturnType<typeof buildWorld>>;
/** Every secret the world planted, the demo's included (read from the database, sealed at rest). */
const planted: { value: string; prefix: string }[] = SECRETS.map(({ value, prefix }) => ({ value, prefix }));

async function buildWorld() {
  worldDir = await mkdtemp(path.join(os.tmpdir(), "teammem-secrecy-"));
  process.env.TEAMMEM_DATA_DIR = path.join(worldDir, "data");
  process.env.TEAMMEM_INITIAL_PASSWORD = PASSWORD;
  const { loadConfig } = await import("@/lib/config");
  const { runSetup } = await import("@/lib/setup/run-setup");
  const config = loadConfig();
  await runSetup(config);
  const { getAuth, getDatabase } = await import("@/app/_server/context");
  const { createAccount, setProjectRole } = await import("@/lib/auth/manage-users");
  const auth = await getAuth();
  const db = getDatabase();
  await db.project.create({ data: { id: "other-project", name: "Other" } });
  await createAccount(auth, db, { email: "vera@acme.example", name: "Vera Viewer", password: PASSWORD });
  await setProjectRole(db, { projectId: PROJECT, email: "vera@acme.example", role: "viewer" });
  await createAccount(auth, db, { email: "olga@other.example", name: "Olga Other", password: PASSWORD });
  await setProjectRole(db, { projectId: "other-project", email: "olga@other.example", role: "lead" });

  const emails: Partial<Record<Identity, string>> = {
    viewer: "vera@acme.example", proposer: "omar@acme.example", otherMember: "priya@acme.example", lead: "lena@acme.example", leadOfOther: "olga@other.example", admin: "admin@teammem.local",
  };
  const sessions: Partial<Record<Identity, string>> = {};
  const userIds: Partial<Record<Identity, string>> = {};
  for (const [identity, email] of Object.entries(emails) as [Identity, string][]) {
    const response = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
    sessions[identity] = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
    userIds[identity] = (await db.user.findUniqueOrThrow({ where: { email } })).id;
  }

  // The demo's credential-bearing proposal: its value joins the planted list.
  const { findProposalOrThrow } = await import("@/lib/review/proposal-records");
  const { scanSecrets } = await import("@/lib/secrets/scan-secrets");
  for (const row of await db.proposal.findMany({ where: { projectId: PROJECT } })) {
    const { content } = await findProposalOrThrow(db, row.id);
    // The preview may show the provider's public prefix (text before "…"); the rest is secret.
    for (const finding of scanSecrets(content ?? "")) planted.push({ value: content!.slice(finding.start, finding.end), prefix: finding.preview.split("…")[0]! });
  }

  // A memory with secrets pushed into the store from elsewhere (not through review).
  const clone = path.join(worldDir, "outside-clone");
  execFileSync("git", ["clone", "-q", config.storeRemote, clone]);
  await writeFile(path.join(clone, "projects", PROJECT, "reference_deploy_bot_leak.md"), secretMemory().replace(/^name: .*$/m, "name: Deploy bot credentials leak"));
  execFileSync("git", ["-C", clone, "add", "."]);
  execFileSync("git", ["-C", clone, "-c", "user.name=Outside", "-c", "user.email=outside@example.invalid", "commit", "-qm", "pushed around review"]);
  execFileSync("git", ["-C", clone, "push", "-q", "origin", "HEAD:main"]);
  const { refreshStore } = await import("@/lib/store/read-store");
  await refreshStore(config, { force: true });

  const { submitProposal } = await import("@/lib/review/submit-proposal");
  const { rejectProposal } = await import("@/lib/review/reject-proposal");
  const submit = async (content: string, extra: { provenance?: Record<string, unknown> } = {}) =>
    submitProposal(config, db, { projectId: PROJECT, path: `project_secrecy_${++unique}.md`, content, source: "member", proposerId: userIds.proposer!, ...extra });
  return { config, db, sessions, userIds, submit, reject: (proposalId: string) => rejectProposal(config, db, { proposalId, actorId: userIds.lead!, reason: "holds a credential" }) };
}

const proposalPath = (id: string, action = "") => `/api/projects/${PROJECT}/proposals/${id}${action ? `/${action}` : ""}`;
async function secretProposalCall(action: string, body: unknown, content = secretMemory()): Promise<Call> {
  const proposal = await world.submit(content, { provenance: { session: "s-1", excerpt: `user said: use ${SECRETS[0]!.value}` } });
  return { path: proposalPath(proposal.id, action), params: { id: PROJECT, proposalId: proposal.id }, body };
}

const ROWS: Record<string, () => Promise<Call>> = {
  "GET /api/health": async () => ({ path: "/api/health" }),
  "GET /api/auth/[...all]": async () => ({ path: "/api/auth/ok", params: { all: "ok" } }),
  "POST /api/auth/[...all]": async () => ({ path: "/api/auth/sign-in/email", params: { all: "sign-in" }, body: { email: "lena@acme.example", password: SECRETS[0]!.value } }),
  "GET /api/me": async () => ({ path: "/api/me" }),
  "GET /api/projects": async () => ({ path: "/api/projects" }),
  "POST /api/projects": async () => ({ path: "/api/projects", body: { id: `secrecy-${++unique}`, name: `Named ${SECRETS[0]!.value}`, repoUrls: [`https://bot:${SECRETS[4]!.value}@github.com/acme/secrecy-${unique}.git`] } }),
  "GET /api/projects/[id]": async () => ({ path: `/api/projects/${PROJECT}`, params: { id: PROJECT } }),
  "PATCH /api/projects/[id]": async () => ({ path: `/api/projects/${PROJECT}`, params: { id: PROJECT }, body: { repoUrls: [`https://bot:${SECRETS[4]!.value}@github.com/acme/checkout.git`] } }),
  "GET /api/projects/[id]/members": async () => ({ path: `/api/projects/${PROJECT}/members`, params: { id: PROJECT } }),
  "POST /api/projects/[id]/members": async () => ({ path: `/api/projects/${PROJECT}/members`, params: { id: PROJECT }, body: { email: `${SECRETS[0]!.value}@acme.example`, role: "member" } }),
  "DELETE /api/projects/[id]/members/[userId]": async () => ({ path: `/api/projects/${PROJECT}/members/${SECRETS[0]!.value}`, params: { id: PROJECT, userId: SECRETS[0]!.value } }),
  "POST /api/projects/[id]/recall": async () => ({ path: `/api/projects/${PROJECT}/recall`, params: { id: PROJECT }, body: { query: `how does the deploy bot reach stripe credentials ${SECRETS[1]!.value}` } }),
  "GET /api/projects/[id]/recall-events": async () => ({ path: `/api/projects/${PROJECT}/recall-events`, params: { id: PROJECT } }),
  // A full listing: the memory pushed around review with secrets in it is part of it (sent masked).
  "GET /api/projects/[id]/sync": async () => ({ path: `/api/projects/${PROJECT}/sync`, params: { id: PROJECT } }),
  "POST /api/projects/[id]/sync/proposals": async () => ({
    path: `/api/projects/${PROJECT}/sync/proposals`,
    params: { id: PROJECT },
    body: { path: `project_sync_${++unique}.md`, content: secretMemory(), baseBlob: null, idempotencyKey: `secrecy-key-${unique}-0123456789`, provenance: { checkout: `/home/${SECRETS[0]!.value}`, baseCommit: null, clientVersion: "secrecy", note: `aws_secret_access_key = ${SECRETS[2]!.value}` } },
  }),
  "POST /api/projects/[id]/sync/proposals/cancel": async () => ({ path: `/api/projects/${PROJECT}/sync/proposals/cancel`, params: { id: PROJECT }, body: { idempotencyKey: `secrecy-key-${unique}-0123456789` } }),
  "GET /api/projects/[id]/sync/members": async () => ({ path: `/api/projects/${PROJECT}/sync/members`, params: { id: PROJECT } }),
  "POST /api/projects/[id]/extractions": async () => {
    const session = new TranscriptBuilder();
    session.assistant([{ text: `Using ${SECRETS[1]!.value}` }, { tool: "Bash", id: "toolu_1", input: { command: `curl -u app:${SECRETS[4]!.value} https://db.internal` } }]);
    session.user(`Remember that the deploy bot authenticates with ${SECRETS[0]!.value} and Stripe with ${SECRETS[3]!.value} (${++unique}).`);
    session.user(`From now on, our release checklist includes rotating ${SECRETS[5]!.value}.`);
    return { path: `/api/projects/${PROJECT}/extractions`, params: { id: PROJECT }, body: { transcript: session.text(), shareExcerpt: true } };
  },
  "GET /api/projects/[id]/proposals": async () => ({ path: `/api/projects/${PROJECT}/proposals`, params: { id: PROJECT } }),
  "POST /api/projects/[id]/proposals": async () => ({ path: `/api/projects/${PROJECT}/proposals`, params: { id: PROJECT }, body: { path: `project_api_${++unique}.md`, content: secretMemory(), provenance: { note: `aws_secret_access_key = ${SECRETS[2]!.value}` } } }),
  "GET /api/projects/[id]/proposals/[proposalId]": async () => {
    const call = await secretProposalCall("", undefined);
    await world.reject(call.params!.proposalId!);
    return call;
  },
  "POST /api/projects/[id]/proposals/[proposalId]/approve": () => secretProposalCall("approve", { revision: 1 }),
  "POST /api/projects/[id]/proposals/[proposalId]/reject": () => secretProposalCall("reject", { reason: `it holds ${SECRETS[3]!.value}` }),
  "POST /api/projects/[id]/proposals/[proposalId]/revise": () => secretProposalCall("revise", { content: secretMemory(), note: `added ${SECRETS[5]!.value}` }, cleanMemory()),
  "POST /api/projects/[id]/proposals/[proposalId]/redact": () => secretProposalCall("redact", undefined),
  "POST /api/projects/[id]/proposals/[proposalId]/withdraw": () => secretProposalCall("withdraw", undefined),
  "POST /api/projects/[id]/proposals/[proposalId]/reopen": async () => {
    const call = await secretProposalCall("reopen", undefined);
    await world.reject(call.params!.proposalId!);
    return call;
  },
  "POST /api/projects/[id]/proposals/[proposalId]/supersede": () => secretProposalCall("supersede", { targetPath: "reference_deploy_bot_leak.md" }),
  "GET /api/projects/[id]/freshness": async () => ({ path: `/api/projects/${PROJECT}/freshness`, params: { id: PROJECT } }),
  "POST /api/projects/[id]/freshness": async () => ({ path: `/api/projects/${PROJECT}/freshness`, params: { id: PROJECT } }),
  "POST /api/projects/[id]/still-true": async () => ({ path: `/api/projects/${PROJECT}/still-true`, params: { id: PROJECT }, body: { path: "reference_deploy_bot_leak.md" } }),
  "POST /api/projects/[id]/proposals/bulk-approve": async () => {
    const call = await secretProposalCall("", undefined);
    return { path: `/api/projects/${PROJECT}/proposals/bulk-approve`, params: { id: PROJECT }, body: { items: [{ proposalId: call.params!.proposalId, revision: 1 }] } };
  },
  "GET /api/tokens": async () => ({ path: "/api/tokens" }),
  "POST /api/tokens": async () => ({ path: "/api/tokens", body: { name: `token ${SECRETS[0]!.value}`, projectIds: [PROJECT] } }),
  "DELETE /api/tokens/[tokenId]": async () => ({ path: `/api/tokens/${SECRETS[0]!.value}`, params: { tokenId: SECRETS[0]!.value } }),
  "POST /api/memory-index/repair": async () => ({ path: "/api/memory-index/repair", body: { folder: `../${SECRETS[0]!.value}`, expectedHash: "0".repeat(64) } }),
  "GET /api/admin/users": async () => ({ path: "/api/admin/users" }),
  "POST /api/admin/users": async () => ({ path: "/api/admin/users", body: { email: `new-${++unique}@acme.example`, name: `Name ${SECRETS[3]!.value}` } }),
  // A path no route claims, naming a secret: the 404 does not echo it.
  ...Object.fromEntries(["GET", "POST", "PUT", "PATCH", "DELETE"].map((method) => [`${method} /api/[...unknown]`, async () => ({ path: `/api/${SECRETS[0]!.value}` })])),
};

/** Hostile requests whose error messages could echo input. */
const HOSTILE_PROPOSALS: unknown[] = [
  { path: `../${SECRETS[0]!.value}.md`, content: cleanMemory() },
  { path: `${SECRETS[0]!.value}\u202e.md`, content: cleanMemory() },
  { path: "feedback_x.md", content: `no frontmatter at all ${SECRETS[3]!.value}` },
  { path: "feedback_x.md", content: cleanMemory(), baseBlob: SECRETS[0]!.value },
  { path: "feedback_x.md", content: cleanMemory(), source: SECRETS[2]!.value },
];

/** Any 8-character window of a secret's value after its public prefix. */
function findLeak(text: string): string | null {
  for (const { value, prefix } of planted) {
    const core = value.startsWith(prefix) ? value.slice(prefix.length) : value;
    for (let start = 0; start + 8 <= core.length; start++) if (text.includes(core.slice(start, start + 8))) return `${value.slice(0, 6)}… (window "${core.slice(start, start + 8)}")`;
  }
  return null;
}

function headersFor(identity: Identity, method: string): Headers {
  const headers = new Headers();
  const cookie = world.sessions[identity];
  if (cookie) headers.set("cookie", cookie);
  if (method !== "GET") headers.set("origin", BASE);
  headers.set("x-forwarded-for", `192.0.2.${IDENTITIES.indexOf(identity) + 20}`);
  return headers;
}

async function send(handler: Handler, identity: Identity, method: string, call: Call): Promise<{ status: number; text: string }> {
  const headers = headersFor(identity, method);
  if (call.body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(BASE + call.path, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
  const response = await handler(request, { params: Promise.resolve(call.params ?? {}) });
  return { status: response.status, text: await response.text() };
}

describe("secrecy matrix", () => {
  beforeAll(async () => {
    world = await buildWorld();
  }, 180_000);
  afterAll(async () => {
    await world?.db.$disconnect();
    await rm(worldDir, { recursive: true, force: true });
  });

  it("plants real secrets: the scanner finds every fixture, and the demo's credential is among them", async () => {
    const { scanSecrets } = await import("@/lib/secrets/scan-secrets");
    expect(scanSecrets(secretBlock())).toHaveLength(SECRETS.length);
    expect(planted.length).toBeGreaterThan(SECRETS.length);
  });

  it("every route has a row here", async () => {
    for (const route of await loadApiRoutes()) expect(ROWS[route.key], `${route.key} has no row in the secrecy matrix`).toBeDefined();
  });

  it("no response of any route, to any caller, holds a secret value", async () => {
    const leaks: string[] = [];
    let successes = 0;
    for (const route of await loadApiRoutes()) {
      const method = route.key.split(" ")[0]!;
      for (const identity of IDENTITIES) {
        const { status, text } = await send(route.handler, identity, method, await ROWS[route.key]!());
        if (status < 300) successes++;
        const leak = findLeak(text);
        if (leak) leaks.push(`${route.key} as ${identity} (${status}): ${leak}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(successes, "the matrix must exercise successful answers, not only refusals").toBeGreaterThan(60);
  }, 300_000);

  it("a proposal's content comes back masked exactly as the page shows it, to the proposer too", async () => {
    const { GET } = await import("@/app/api/projects/[id]/proposals/[proposalId]/route");
    const call = await secretProposalCall("", undefined);
    const answer = await send(GET as unknown as Handler, "proposer", "GET", call);
    expect(answer.status).toBe(200);
    const { proposal } = JSON.parse(answer.text) as { proposal: { content: string; name: string; provenance: Record<string, string> } };
    expect(proposal.content).toContain("[REDACTED:github-classic-token ghp_…");
    expect(proposal.content).toContain("postgres://app:[REDACTED:url-password");
    expect(proposal.content).toContain("The deploy bot posts to #deploys."); // everything else intact
    expect(proposal.name).toMatch(/^Deploy bot \[REDACTED:github-classic-token/);
    expect(proposal.provenance.excerpt).toMatch(/^user said: use \[REDACTED:/);
  });

  it("the team memory pushed around review is listed and recalled masked", async () => {
    const { GET } = await import("@/app/api/projects/[id]/route");
    const listed = await send(GET as unknown as Handler, "viewer", "GET", { path: `/api/projects/${PROJECT}`, params: { id: PROJECT } });
    expect(listed.text).toContain("How the deploy bot reaches Stripe with [REDACTED:stripe-live-key");
    const { readMemory } = await import("@/lib/memories/read-memory");
    const caller = { userId: world.userIds.viewer!, email: "vera@acme.example", name: "Vera", isAdmin: false, via: "session" as const, tokenProjectIds: null };
    const memory = await readMemory({ config: world.config, db: world.db, caller, source: { scope: "team", projectId: PROJECT }, memoryPath: "reference_deploy_bot_leak.md" });
    expect(findLeak(JSON.stringify(memory))).toBeNull();
    expect(memory.body).toContain("[REDACTED:aws-secret-access-key");

    const recall = (await import("@/app/api/projects/[id]/recall/route")).POST as unknown as Handler;
    const answer = await send(recall, "proposer", "POST", { path: `/api/projects/${PROJECT}/recall`, params: { id: PROJECT }, body: { query: "deploy bot credentials leak stripe" } });
    const { selected } = JSON.parse(answer.text) as { selected: { file: string; injection: string }[] };
    const leaked = selected.find((memory) => memory.file === "reference_deploy_bot_leak.md");
    expect(leaked, answer.text).toBeDefined();
    expect(leaked!.injection).toContain("[REDACTED:github-classic-token");
    expect(findLeak(answer.text)).toBeNull();
    expect((JSON.parse(answer.text) as { manifest: string }).manifest).toContain("reference_deploy_bot_leak.md");
    // As the prompt hook asks: the same memories, masked the same, and no manifest.
    const lean = await send(recall, "proposer", "POST", { path: `/api/projects/${PROJECT}/recall`, params: { id: PROJECT }, body: { query: "deploy bot credentials leak stripe", includeManifest: false } });
    expect(JSON.parse(lean.text)).not.toHaveProperty("manifest");
    expect((JSON.parse(lean.text) as { selected: unknown[] }).selected).toEqual(selected);
  });

  it("extraction's and dream's models read the manifest with that memory's description masked", async () => {
    const { startMessagesApiStub } = await import("../helpers/messages-api-stub");
    const { runProjectDream } = await import("@/lib/extraction/run-project-dream");
    const api = await startMessagesApiStub({ kind: "tool_use", calls: [{ name: "list_memories", input: {} }] }, { kind: "text", text: "Nothing to add." });
    try {
      const withModel = { ...world.config, anthropicApiKey: "sk-ant-test", anthropicBaseUrl: api.baseUrl, extractionTimeoutMs: 5_000 };
      await runProjectDream(withModel, world.db, { projectId: PROJECT, userId: world.userIds.proposer!, logs: [{ file: "logs/2026/11/2026-11-30.md", date: "2026-11-30", text: "## Deploys\n- the deploy bot posts to #deploys\n" }] });
      expect(api.requests).toHaveLength(2); // the first message and the list_memories answer both carry the manifest
      const sent = JSON.stringify(api.requests.map((request) => request.body));
      expect(sent).toMatch(/reference_deploy_bot_leak\.md \([^)]+\): How the deploy bot reaches Stripe with \[REDACTED:stripe-live-key/);
      expect(findLeak(sent)).toBeNull();
    } finally {
      await api.close();
    }
  });

  it("free text stored in clear refuses a credential: rejection reasons, revision notes, token names", async () => {
    const reject = (await import("@/app/api/projects/[id]/proposals/[proposalId]/reject/route")).POST as unknown as Handler;
    const call = await secretProposalCall("reject", { reason: `it holds ${SECRETS[3]!.value}` });
    const refused = await send(reject, "lead", "POST", call);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.message).toMatch(/^reason: holds what looks like a credential \(stripe-live-key\)/);
    const stored = await world.db.proposalEvent.findMany({ where: { proposalId: call.params!.proposalId! } });
    expect(stored.map((event) => event.toState)).toEqual(["blocked_secret"]);
    const tokens = (await import("@/app/api/tokens/route")).POST as unknown as Handler;
    expect((await send(tokens, "lead", "POST", { path: "/api/tokens", body: { name: `ci ${SECRETS[0]!.value}`, projectIds: [PROJECT] } })).status).toBe(400);
  });

  it("provenance is stored with its secrets redacted", async () => {
    const proposal = await world.submit(cleanMemory(), { provenance: { excerpt: `user: the key is ${SECRETS[0]!.value}` } });
    const row = await world.db.proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect(row.provenance).toContain("[REDACTED:github-classic-token]");
    expect(findLeak(row.provenance)).toBeNull();
  });

  it("a provenance value whose key names it a secret is redacted, as the same assignment in a file is", async () => {
    const provenance = { aws_secret_access_key: SECRETS[2]!.value, password: SECRETS[4]!.value, env: { DB_PASSWORD: SECRETS[4]!.value }, session: "s-7", tool: "Write" };
    const proposal = await world.submit(cleanMemory(), { provenance });
    const row = await world.db.proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect(findLeak(row.provenance)).toBeNull();
    expect(JSON.parse(row.provenance)).toEqual({ aws_secret_access_key: "[REDACTED:aws-secret-access-key]", password: "[REDACTED:password-assignment]", env: { DB_PASSWORD: "[REDACTED:password-assignment]" }, session: "s-7", tool: "Write" });
  });

  it("a token in a path, an id or a repository URL the caller sends is not echoed back, and such a URL is refused", async () => {
    const token = SECRETS[0]!.value;
    const [{ POST: stillTrue }, { POST: bulkApprove }, { POST: createProject }, { POST: syncPropose }, { POST: createUser }] = await Promise.all([
      import("@/app/api/projects/[id]/still-true/route"),
      import("@/app/api/projects/[id]/proposals/bulk-approve/route"),
      import("@/app/api/projects/route"),
      import("@/app/api/projects/[id]/sync/proposals/route"),
      import("@/app/api/admin/users/route"),
    ]);
    const provenance = { checkout: "github.com/acme/checkout", baseCommit: null, clientVersion: "test" };
    const answers = [
      await send(stillTrue as unknown as Handler, "lead", "POST", { path: `/api/projects/${PROJECT}/still-true`, params: { id: PROJECT }, body: { path: `reference_${token}.md` } }),
      await send(bulkApprove as unknown as Handler, "lead", "POST", { path: `/api/projects/${PROJECT}/proposals/bulk-approve`, params: { id: PROJECT }, body: { items: [{ proposalId: token, revision: 1 }] } }),
      await send(createProject as unknown as Handler, "admin", "POST", { path: "/api/projects", body: { name: "Leaky", repoUrls: [`github.com/acme/${token}`] } }),
      await send(createProject as unknown as Handler, "admin", "POST", { path: "/api/projects", body: { name: "Leaky", id: `proj-${token}` } }),
      // Kept in the database as sent, to answer a retry: a key that is a token is refused.
      await send(syncPropose as unknown as Handler, "proposer", "POST", { path: `/api/projects/${PROJECT}/sync/proposals`, params: { id: PROJECT }, body: { path: "project_keyed.md", content: cleanMemory(), baseBlob: null, idempotencyKey: token, provenance } }),
      await send(createUser as unknown as Handler, "admin", "POST", { path: "/api/admin/users", body: { email: `${token}@acme.example`, name: "Token Person" } }),
    ];
    for (const answer of answers) expect(findLeak(answer.text), answer.text).toBeNull();
    expect(answers.map((answer) => answer.status)).toEqual([404, 200, 400, 400, 400, 400]);
    expect(await world.db.syncSubmission.count({ where: { idempotencyKey: token } })).toBe(0);
    expect(await world.db.user.count({ where: { email: { contains: token.slice(4, 20).toLowerCase() } } })).toBe(0);
  });

  it("hostile submissions are refused with messages that hold no secret", async () => {
    const { POST } = await import("@/app/api/projects/[id]/proposals/route");
    for (const body of HOSTILE_PROPOSALS) {
      const answer = await send(POST as unknown as Handler, "proposer", "POST", { path: `/api/projects/${PROJECT}/proposals`, params: { id: PROJECT }, body });
      // A bad path is refused; bad content is accepted as a blocked proposal, shown masked.
      if (typeof body === "object" && body !== null && "path" in body && String(body.path) !== "feedback_x.md") expect(answer.status, answer.text).toBe(400);
      expect(findLeak(answer.text), answer.text).toBeNull();
    }
  });
});
