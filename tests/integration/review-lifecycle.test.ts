import { execFileSync } from "node:child_process";
import { mkdtemp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { applyRedaction } from "@/lib/review/apply-redaction";
import { approveProposal } from "@/lib/review/approve-proposal";
import { countOpenProposals } from "@/lib/review/count-open-proposals";
import { getProposal } from "@/lib/review/get-proposal";
import { listProposals } from "@/lib/review/list-proposals";
import { reconcileCommits } from "@/lib/review/reconcile-commits";
import { rejectProposal } from "@/lib/review/reject-proposal";
import { reopenProposal } from "@/lib/review/reopen-proposal";
import { reviseProposal } from "@/lib/review/revise-proposal";
import { submitProposal, type SubmitProposalInput } from "@/lib/review/submit-proposal";
import { transitionProposal } from "@/lib/review/transition-proposal";
import { withdrawProposal } from "@/lib/review/withdraw-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { commitChange, readCurrentFile } from "@/lib/store/commit-change";
import { refreshStore } from "@/lib/store/read-store";
import { fakePassword, memoryText } from "../unit/review/memory-fixtures";

/** The embedded demo (bare store, its clone, SQLite) in a temporary data folder. */
let root: string;
let config: Config;
let db: Db;
const users = { lena: "", omar: "", priya: "" };
const PROJECT = "acme-checkout";

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-review-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  for (const name of ["lena", "omar", "priya"] as const) {
    users[name] = (await db.user.findUniqueOrThrow({ where: { email: `${name}@acme.example` } })).id;
  }
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Reads the real bare store, not the server's clone. */
function storeGit(...args: string[]): string {
  return execFileSync("git", ["--git-dir", config.storeRemote, ...args], { encoding: "utf8" });
}
const mainHead = () => storeGit("rev-parse", "main").trim();
function storeFile(file: string): string | null {
  try {
    return storeGit("show", `main:projects/${PROJECT}/${file}`);
  } catch {
    return null;
  }
}

let counter = 0;
const uniquePath = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${counter++}.md`;

const submit = (input: Partial<SubmitProposalInput> & { content: string | null }) =>
  submitProposal(config, db, { projectId: PROJECT, path: uniquePath("project_review"), source: "member", proposerId: users.omar, ...input });

async function expectCode(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

const projectMemory = (name: string, description: string, body = "The decision and its date, 2026-11-02.\n**Why:** it surprised us.\n**How to apply:** every checkout change.\n") =>
  memoryText({ name, description, type: "project", body });

describe("a proposal's way into the team store", () => {
  it("submits, approves and commits: the file and its index line land in the store with proposer, approver and trailers", async () => {
    const content = projectMemory("Refund webhook retries", "PayFlow refund webhooks are retried for 72 hours, so refund handlers must be idempotent");
    const submitted = await submit({ content, provenance: { transcript: "t-1", messages: "3-9" } });
    expect(submitted).toMatchObject({ state: "submitted", revision: 1, source: "member", type: "project", name: "Refund webhook retries", isRetirement: false, baseBlob: null, baseContent: null, headContent: null, provenance: { transcript: "t-1", messages: "3-9" } });
    expect(submitted.checks.blockers).toEqual([]);
    expect(submitted.proposer).toMatchObject({ id: users.omar, name: "Omar Haddad", email: "omar@acme.example" });

    const committed = await approveProposal(config, db, { proposalId: submitted.id, approverId: users.lena, revision: 1 });
    expect(committed.state).toBe("committed");
    expect(committed.approvedRevision).toBe(1);
    expect(committed.committedCommit).toBe(mainHead());
    expect(storeFile(submitted.path)).toBe(content);
    expect(storeFile("MEMORY.md")).toContain(submitted.path);
    const [author, committer, body] = storeGit("log", "-1", "--format=%an <%ae>%x00%cn <%ce>%x00%B", "main").split("\0");
    expect(author).toBe("Omar Haddad <omar@acme.example>");
    expect(committer).toBe("Lena Park <lena@acme.example>");
    expect(body).toMatch(/^Add project memory: Refund webhook retries\n/);
    expect(body).toContain(`Proposal-Id: ${submitted.id}`);
    expect(body).toContain("Approved-by: Lena Park <lena@acme.example>");
    expect(body).toContain("Source: member");
    expect(body).toMatch(/Base-Commit: [0-9a-f]{40}/);
    expect(committed.events.map((event) => [event.fromState, event.toState, event.actorName])).toEqual([
      [null, "submitted", "Omar Haddad"],
      ["submitted", "approved", "Lena Park"],
      ["approved", "committed", "Lena Park"],
    ]);
    expect(committed.headContent).toBe(content);
    // Approving again is refused: it is already in the store.
    await expectCode(approveProposal(config, db, { proposalId: submitted.id, approverId: users.lena, revision: 1 }), "CONFLICT");
  });

  it("keeps both proposals when two change the same field from one base: the second becomes conflicted with base, ours and theirs", async () => {
    const file = "project_outbox_decision.md";
    const base = (await readCurrentFile(config, PROJECT, file))!;
    const first = await submit({ path: file, content: base.content.replace(/^description: .*$/m, "description: Checkout events go through the transactional outbox (decided 2026-07-11)") });
    const second = await submit({ path: file, proposerId: users.priya, content: base.content.replace(/^description: .*$/m, "description: Since 2026-07-11 request handlers never publish Kafka events directly") });
    expect(first.baseBlob).toBe(base.blob);
    expect(second.baseBlob).toBe(base.blob);

    expect((await approveProposal(config, db, { proposalId: first.id, approverId: users.lena, revision: 1 })).state).toBe("committed");
    const headAfterFirst = mainHead();
    const conflicted = await approveProposal(config, db, { proposalId: second.id, approverId: users.lena, revision: 1 });
    expect(conflicted.state).toBe("conflicted");
    expect(mainHead()).toBe(headAfterFirst);
    expect(conflicted.approvedRevision).toBeNull();
    expect(conflicted.content).toBe(second.content); // nothing of the proposal is lost
    expect(conflicted.conflict?.fields).toContain("description");
    expect(conflicted.conflict?.base).toBe(base.content);
    expect([conflicted.conflict?.ours, conflicted.conflict?.theirs].sort()).toEqual([first.content, second.content].sort());
    expect(storeFile(file)).toBe(first.content);
    await expectCode(approveProposal(config, db, { proposalId: second.id, approverId: users.lena, revision: 1 }), "CONFLICT");

    // The reviewer resolves it by editing: the new revision is made against the store's file now.
    // Her merged text is hers, so four eyes wants another lead to approve it.
    const resolved = await reviseProposal(config, db, { proposalId: second.id, actorId: users.lena, content: first.content!.replace("(decided 2026-07-11)", "(decided 2026-07-11; handlers never publish directly)"), note: "merged both descriptions" });
    expect(resolved).toMatchObject({ state: "in_review", revision: 2, conflict: null });
    await expectCode(approveProposal(config, db, { proposalId: second.id, approverId: users.lena, revision: 2 }), "FORBIDDEN");
    await db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: users.omar } }, data: { role: "lead" } });
    try {
      expect((await approveProposal(config, db, { proposalId: second.id, approverId: users.omar, revision: 2 })).state).toBe("committed");
    } finally {
      await db.projectMember.update({ where: { projectId_userId: { projectId: PROJECT, userId: users.omar } }, data: { role: "member" } });
    }
    expect(storeFile(file)).toContain("handlers never publish directly");
    expect((await getProposal(config, db, second.id)).revisions.map((revision) => revision.revision)).toEqual([1, 2]);
  });

  it("merges changes to different fields from one base and keeps the approval", async () => {
    const file = "project_orders_partitioning.md";
    const base = (await readCurrentFile(config, PROJECT, file))!;
    const descriptionChange = base.content.replace(/^description: .*$/m, "description: Orders table moved to monthly partitions; cutover done on 2026-07-02");
    const bodyChange = base.content.replace("Omar owns the cutover.", "Omar owns the cutover; Priya owns the backfill checks.");
    const first = await submit({ path: file, content: descriptionChange });
    const second = await submit({ path: file, proposerId: users.priya, content: bodyChange });
    await approveProposal(config, db, { proposalId: first.id, approverId: users.lena, revision: 1 });
    const merged = await approveProposal(config, db, { proposalId: second.id, approverId: users.lena, revision: 1 });
    expect(merged.state).toBe("committed");
    expect(merged.approvedRevision).toBe(1);
    expect(merged.events.at(-1)?.reason).toMatch(/merged/);
    const stored = storeFile(file)!;
    expect(stored).toContain("cutover done on 2026-07-02");
    expect(stored).toContain("Priya owns the backfill checks");
    expect(storeGit("log", "-1", "--format=%an", "main").trim()).toBe("Priya Nair");
  });
});

describe("retiring and failing", () => {
  it("retires a team memory: the file leaves the store and the index", async () => {
    const file = "project_holiday_freeze_2025.md";
    const retirement = await submit({ path: file, content: null });
    expect(retirement).toMatchObject({ isRetirement: true, name: "Holiday code freeze 2025-12-15 to 2026-01-05", type: "project", content: null, checks: { blockers: [] } });
    expect(retirement.baseContent).toBe(retirement.headContent);
    const committed = await approveProposal(config, db, { proposalId: retirement.id, approverId: users.lena, revision: 1 });
    expect(committed.state).toBe("committed");
    expect(storeFile(file)).toBeNull();
    expect(storeFile("MEMORY.md")).not.toContain(file);
    expect(storeGit("log", "-1", "--format=%s", "main").trim()).toBe("Retire project memory: Holiday code freeze 2025-12-15 to 2026-01-05");
  });

  it("records commit_failed when the store cannot be reached, and commits on the next approval", async () => {
    const proposal = await submit({ content: projectMemory("Refund queue owner", "Priya owns the refund queue consumer since 2026-09-01; page her for backlog alerts") });
    await refreshStore(config, { force: true }); // the next few seconds' reads use the clone as is
    const hidden = `${config.storeRemote}.away`;
    await rename(config.storeRemote, hidden);
    let failed;
    try {
      failed = await approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 });
    } finally {
      await rename(hidden, config.storeRemote);
    }
    expect(failed.state).toBe("commit_failed");
    expect(failed.events.at(-1)?.reason).toMatch(/TEAMMEM_STORE_REMOTE/);
    expect(storeFile(proposal.path)).toBeNull();
    expect(await countOpenProposals(db, [PROJECT])).toBeGreaterThan(0);

    const retried = await approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 });
    expect(retried.state).toBe("committed");
    expect(storeFile(proposal.path)).toBe(proposal.content);
  });
});

describe("checks that stop an approval", () => {
  it("refuses content with a secret (nothing pushed), keeps the value out of the database's checks, and approves after redaction", async () => {
    const password = fakePassword(42);
    const content = projectMemory("Staging admin login", "How the team signs in to the staging admin console for refund checks", `Staging admin: password = "${password}"\n**Why:** refunds are checked by hand.\n**How to apply:** staging only.\n`);
    const blocked = await submit({ content });
    expect(blocked.state).toBe("blocked_secret");
    expect(blocked.checks.secrets).toMatchObject([{ kind: "password-assignment", line: 6 }]);
    const row = await db.proposal.findUniqueOrThrow({ where: { id: blocked.id } });
    expect(row.checks).not.toContain(password);

    const headBefore = mainHead();
    const refused = await expectCode(approveProposal(config, db, { proposalId: blocked.id, approverId: users.lena, revision: 1 }), "SECRET_FOUND");
    expect(refused.message).not.toContain(password);
    expect(mainHead()).toBe(headBefore);

    const redacted = await applyRedaction(config, db, { proposalId: blocked.id, actorId: users.lena });
    expect(redacted).toMatchObject({ state: "in_review", revision: 2 });
    expect(redacted.content).toContain('password = "[REDACTED:password-assignment]"');
    expect(redacted.revisions.at(-1)?.note).toMatch(/Redacted 1 secret/);
    const committed = await approveProposal(config, db, { proposalId: blocked.id, approverId: users.lena, revision: 2 });
    expect(committed.state).toBe("committed");
    expect(storeFile(blocked.path)).not.toContain(password);
    // Revision 1 is kept in the database, as every revision is.
    expect((await db.proposalRevision.findMany({ where: { proposalId: blocked.id } })).map((revision) => revision.revision)).toEqual([1, 2]);
  });

  it("refuses a stale revision with the number to review", async () => {
    const proposal = await submit({ content: projectMemory("Coupon API sunset", "The legacy coupon API is switched off on 2027-01-15; migrate callers before then") });
    await reviseProposal(config, db, { proposalId: proposal.id, actorId: users.lena, content: proposal.content!.replace("2027-01-15", "2027-01-31") });
    const error = await expectCode(approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 }), "CONFLICT");
    expect(error.message).toBe("The proposal changed since you looked; review revision 2.");
  });

  it("never lets a user memory into the team store", async () => {
    const proposal = await submit({ content: memoryText({ name: "Omar likes Go", description: "Omar prefers Go examples over Python in explanations", type: "user", body: "Show Go first.\n" }) });
    expect(proposal.checks.scope.verdict).toBe("private-only");
    const headBefore = mainHead();
    const error = await expectCode(approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1, confirmTeamConvention: true }), "FORBIDDEN");
    expect(error.message).toMatch(/stays personal/);
    expect(mainHead()).toBe(headBefore);
    expect((await getProposal(config, db, proposal.id)).state).toBe("submitted");
  });

  it("needs the team-convention confirmation for feedback, and records it", async () => {
    const proposal = await submit({ path: uniquePath("feedback_review"), content: memoryText({ name: "Migrations run in CI only", description: "Schema migrations for checkout run only from the CI pipeline, never from a laptop" }) });
    expect(proposal.checks.scope.verdict).toBe("needs-confirmation");
    const error = await expectCode(approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 }), "INVALID_INPUT");
    expect(error.details).toEqual({ field: "confirmTeamConvention" });
    const committed = await approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1, confirmTeamConvention: true });
    expect(committed).toMatchObject({ state: "committed", teamConventionConfirmed: true });
    expect(storeGit("log", "-1", "--format=%s", "main").trim()).toBe("Add feedback memory: Migrations run in CI only");
  });

  it("a memory without a valid type hears about its format first, not about a team convention", async () => {
    const proposal = await submit({ path: uniquePath("project_untyped"), content: "---\nname: Untyped\ndescription: A memory whose type is not one of the four\ntype: decision\n---\nBody.\n" });
    const error = await expectCode(approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 }), "INVALID_MEMORY");
    expect(error.message).toMatch(/format error/);
    expect(error.message).not.toMatch(/Feedback/);
  });

  it("refuses unsafe paths and oversized content, naming the field", async () => {
    for (const badPath of ["../escape.md", "notes.txt", "MEMORY.md", "team/MEMORY.md", "/abs.md"]) {
      expect((await expectCode(submit({ path: badPath, content: projectMemory("x", "y z w") }), "INVALID_INPUT")).details).toEqual({ field: "path" });
    }
    const tooBig = projectMemory("Big", "A very large memory file body", "x".repeat(101 * 1024));
    expect((await expectCode(submit({ content: tooBig }), "INVALID_INPUT")).details).toEqual({ field: "content" });
    await expectCode(submit({ content: null }), "INVALID_INPUT"); // retiring a file that does not exist
  });
});

describe("closing and reopening", () => {
  it("rejects with a required reason, reopens with the content intact, and records every move", async () => {
    const proposal = await submit({ content: projectMemory("Wallet launch date", "The wallet feature launches to all EU customers on 2027-02-01") });
    await expectCode(rejectProposal(config, db, { proposalId: proposal.id, actorId: users.lena, reason: "  " }), "INVALID_INPUT");
    // A direction override would reverse the page's own sentence after it ("A lead can reopen it.").
    await expectCode(rejectProposal(config, db, { proposalId: proposal.id, actorId: users.lena, reason: "duplicate \u202e" }), "INVALID_INPUT");
    await rejectProposal(config, db, { proposalId: proposal.id, actorId: users.lena, reason: "Already in project_wallet_launch.md" });
    const rejected = await getProposal(config, db, proposal.id);
    expect(rejected).toMatchObject({ state: "rejected", rejectionReason: "Already in project_wallet_launch.md", content: proposal.content });
    await expectCode(approveProposal(config, db, { proposalId: proposal.id, approverId: users.lena, revision: 1 }), "CONFLICT");

    const reopened = await reopenProposal(config, db, { proposalId: proposal.id, actorId: users.omar });
    expect(reopened).toMatchObject({ state: "submitted", revision: 1, content: proposal.content, rejectionReason: null });
    expect(reopened.events.map((event) => [event.fromState, event.toState, event.reason])).toEqual([
      [null, "submitted", null],
      ["submitted", "rejected", "Already in project_wallet_launch.md"],
      ["rejected", "submitted", "reopened after: Already in project_wallet_launch.md"],
    ]);
    const hashes = new Set((await db.proposalEvent.findMany({ where: { proposalId: proposal.id } })).map((event) => event.contentHash));
    expect(hashes).toEqual(new Set((await db.proposalRevision.findMany({ where: { proposalId: proposal.id } })).map((revision) => revision.contentHash)));
    // The API's view carries no hash of the text (an offline oracle for a short secret in it).
    expect(JSON.stringify(reopened.revisions)).not.toContain([...hashes][0]);
  });

  it("lets only the proposer withdraw, and counts and filters the queue", async () => {
    const proposal = await submit({ proposerId: users.priya, content: projectMemory("Latency budget", "Checkout submit p95 budget is 400 ms from Q1 2027 onwards") });
    const openBefore = await countOpenProposals(db, [PROJECT]);
    await expectCode(withdrawProposal(config, db, { proposalId: proposal.id, actorId: users.omar }), "FORBIDDEN");
    await withdrawProposal(config, db, { proposalId: proposal.id, actorId: users.priya });
    expect(await countOpenProposals(db, [PROJECT])).toBe(openBefore - 1);
    // Withdrawn is the author's call: a lead cannot put it back and commit it under her name.
    await expectCode(reopenProposal(config, db, { proposalId: proposal.id, actorId: users.lena }), "FORBIDDEN");
    expect(await countOpenProposals(db, [])).toBe(0);

    const withdrawn = await listProposals(config, db, { projectIds: [PROJECT], states: ["withdrawn"] });
    expect(withdrawn.map((summary) => summary.id)).toContain(proposal.id);
    const queue = await listProposals(config, db, { projectIds: [PROJECT] });
    expect(queue.every((summary, index) => index === 0 || queue[index - 1]!.createdAt <= summary.createdAt)).toBe(true);
    const blocked = await listProposals(config, db, { projectIds: [PROJECT], check: "blocked" });
    expect(blocked.every((summary) => summary.checks.blockers.length > 0)).toBe(true);
    const clean = await listProposals(config, db, { projectIds: [PROJECT], check: "clean" });
    expect(clean.every((summary) => summary.checks.blockers.length === 0)).toBe(true);
    // Only what "Approve all clean" may take: not the withdrawn one, whose checks read clean.
    expect(clean.every((summary) => summary.state === "submitted" || summary.state === "in_review")).toBe(true);
    expect(clean.map((summary) => summary.id)).not.toContain(proposal.id);
    expect(await listProposals(config, db, { projectIds: ["no-such-project"] })).toEqual([]);
    await expectCode(getProposal(config, db, "no-such-proposal"), "NOT_FOUND");
  });

  it("shows same-name duplicates among the team memories, but not the file being edited", async () => {
    const existing = (await readCurrentFile(config, PROJECT, "reference_grafana_checkout.md"))!;
    const edit = await submit({ path: "reference_grafana_checkout.md", content: existing.content.replace(/\n$/, "\nAlso linked from the runbook.\n") });
    expect(edit.checks.duplicates.map((duplicate) => duplicate.path)).not.toContain("reference_grafana_checkout.md");
    const copy = await submit({ content: existing.content.replace(/^type: .*$/m, "type: reference") });
    expect(copy.checks.duplicates[0]).toMatchObject({ path: "reference_grafana_checkout.md", kind: "same-name", similarity: 1 });
    await withdrawProposal(config, db, { proposalId: edit.id, actorId: users.omar });
  });
});

describe("a crash between push and database update", () => {
  it("is reconciled once: the landed commit marks the proposal committed, a second run finds nothing", async () => {
    const proposal = await submit({ content: projectMemory("Outbox relay lag alert", "The outbox relay pages on-call when its lag exceeds 2 minutes, since 2026-10-04") });
    // What approveProposal does up to the commit, then a "crash" right after the push.
    await db.$transaction((tx) =>
      transitionProposal(tx, { proposalId: proposal.id, from: "submitted", to: "approved", revision: 1, actorId: users.lena, content: proposal.content, data: { approvedRevision: 1, approvedById: users.lena } }),
    );
    const outcome = await commitChange(config, db, {
      change: { projectId: PROJECT, path: proposal.path, content: proposal.content, baseBlob: null },
      author: { name: "Omar Haddad", email: "omar@acme.example" },
      committer: { name: "Lena Park", email: "lena@acme.example" },
      subject: "Add project memory: Outbox relay lag alert",
      trailers: { "Proposal-Id": proposal.id },
      onIntent: async (commit) => {
        await db.proposal.update({ where: { id: proposal.id }, data: { intendedCommit: commit } });
      },
    });
    expect(outcome.status).toBe("committed");
    const landed = outcome.status === "committed" ? outcome.commit : "";
    expect((await getProposal(config, db, proposal.id)).state).toBe("approved");

    expect(await reconcileCommits(config, db)).toBe(1);
    const reconciled = await getProposal(config, db, proposal.id);
    expect(reconciled).toMatchObject({ state: "committed", committedCommit: landed });
    expect(reconciled.events.filter((event) => event.toState === "committed")).toHaveLength(1);
    expect(await reconcileCommits(config, db)).toBe(0);
    expect(storeGit("log", "--format=%H", "main", "--", `projects/${PROJECT}/${proposal.path}`).trim().split("\n")).toEqual([landed]);
  });
});
