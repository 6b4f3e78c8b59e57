import type { Config } from "../config";
import { parseMemoryHeader, type MemoryType } from "../memdir/frontmatter";
import { directReadsOf, type Db } from "../db/client";
import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { AppError, isAppError } from "../errors";
import { commitChange, type CommitOutcome } from "../store/commit-change";
import { reachFaultPoint } from "../store/fault-points";
import { tryWithLease } from "../store/store-lock";
import { listBlockers } from "./compute-checks";
import { formatCommitMessage } from "./format-commit-message";
import { findProposalOrThrow, findUserOrThrow, sourceOf, type ProposalRow } from "./proposal-records";
import type { ProposalPerson } from "./proposal-types";
import { parseStoredChecks, serializeStoredChecks } from "./stored-checks";
import { transitionProposal } from "./transition-proposal";

export type CommitApprovedOptions = {
  proposalId: string;
  /** Who the events name: the approver, or null when the server reconciles on its own. */
  actorId: string | null;
  /** The approval that just recorded the proposal as approved, with its approver: nothing to read again. */
  known?: { proposal: ProposalRow; content: string | null; approver: ProposalPerson };
};

/**
 * Writes an approved proposal into the store (fetch, merge if the file moved, scan, commit, push)
 * and records the outcome: committed, conflicted (the three versions kept), blocked_secret, or
 * commit_failed when the store cannot be reached. The intended commit is recorded before the push
 * so a crash in between is reconciled exactly once (reconcileCommits).
 */
export async function commitApprovedProposal(config: Config, db: Db, options: CommitApprovedOptions): Promise<void> {
  const { proposal, state, content } = options.known ? { ...options.known, state: options.known.proposal.state } : await findProposalOrThrow(db, options.proposalId);
  if (state !== "approved" || proposal.approvedById === null) {
    throw new AppError("CONFLICT", "Only an approved proposal can be committed; reload it to see its current state.");
  }
  const approvedById = proposal.approvedById;
  const [proposer, approvedBy] = await Promise.all([
    findUserOrThrow(db, proposal.proposerId, "proposer"),
    options.known?.approver.id === approvedById ? options.known.approver : findUserOrThrow(db, approvedById, "approver"),
  ]);
  const [author, approver] = [asNamedInStore(proposer), asNamedInStore(approvedBy)];
  const stored = parseStoredChecks(proposal.checks);
  const describe = (header: { name: string | null; type: MemoryType | null }) =>
    formatCommitMessage({
      proposalId: proposal.id,
      path: proposal.path,
      ...header,
      isNew: proposal.baseBlob === null,
      isRetirement: content === null,
      source: sourceOf(proposal.source),
      approver,
      baseCommit: stored.baseCommit,
    });
  const message = describe({ name: stored.name, type: stored.type });
  // A clean merge may keep the store's name or type: the subject says what was committed.
  const mergedSubject = (merged: string) => {
    const { name, type } = parseMemoryHeader(merged);
    return describe({ name: name ?? stored.name, type: type ?? stored.type }).subject;
  };
  // A project's first memory also lists it in teammem.json, under the name it has here.
  const projectName = (await directReadsOf(db).one<{ name: string }>(`SELECT "name" FROM "Project" WHERE "id" = ?`, [proposal.projectId]))?.name;
  let outcome: CommitOutcome;
  try {
    outcome = await commitChange(config, db, {
      change: { projectId: proposal.projectId, projectName, path: proposal.path, content, baseBlob: proposal.baseBlob },
      author: { name: author.name, email: author.email },
      committer: { name: approver.name, email: approver.email },
      ...message,
      mergedSubject,
      onIntent: async (commit) => {
        // In plain SQL: one statement inside the store lease, where Prisma wrapped it in a transaction of its own.
        const count = await db.$executeRaw`UPDATE "Proposal" SET "intendedCommit" = ${commit}, "updatedAt" = ${new Date()} WHERE "id" = ${proposal.id} AND "state" = 'approved' AND "revision" = ${proposal.revision}`;
        // Throwing here stops the push: someone else moved the proposal meanwhile.
        if (count === 0) throw new AppError("CONFLICT", "The proposal changed while it was being committed; reload it and try again.");
      },
    });
  } catch (error) {
    // The state must not stay "approved" with nobody working on it: record the failure (with a
    // message safe to show) and let the reviewer retry. A push that did land is found on retry.
    const reason = isAppError(error) ? error.message : "The commit failed unexpectedly; try again, and check the server log if it keeps failing.";
    await record(db, proposal, content, options.actorId, { to: "commit_failed", reason });
    if (isAppError(error) && error.code === "STORE_UNAVAILABLE") return;
    throw error;
  }
  reachFaultPoint(config, "before-record");
  await recordOutcome(db, proposal, content, options.actorId, outcome);
}

/**
 * Runs `work` while this process holds the proposal's commit claim, a lease renewed while the
 * work runs. Whoever approves, retries or reconciles a proposal holds it from the approval to the
 * recorded outcome, so "approved, and nobody holds its claim" means its worker is gone
 * (docs/store.md step 9). Someone else holding it live is a CONFLICT.
 */
export async function withCommitClaim<T>(db: Db, proposalId: string, work: () => Promise<T>): Promise<T> {
  const claimed = await tryWithLease(db, commitClaimName(proposalId), work);
  if (claimed.status === "ran") return claimed.value;
  throw new AppError("CONFLICT", "This proposal is being committed right now by a teammem server; reload it in a moment to see the outcome.");
}

export function commitClaimName(proposalId: string): string {
  return `commit:${proposalId}`;
}

async function recordOutcome(db: Db, proposal: ProposalRow, content: string | null, actorId: string | null, outcome: CommitOutcome): Promise<void> {
  const stored = parseStoredChecks(proposal.checks);
  switch (outcome.status) {
    case "committed":
      return record(db, proposal, content, actorId, {
        to: "committed",
        reason: outcome.merged ? `merged with changes made in the store since its base; commit ${outcome.commit}` : `commit ${outcome.commit}`,
        data: { committedCommit: outcome.commit, intendedCommit: outcome.commit },
      });
    case "unchanged":
      return record(db, proposal, content, actorId, { to: "committed", reason: `the store already holds this content at ${outcome.commit}`, data: { committedCommit: outcome.commit } });
    case "conflicted": {
      const conflict = { base: outcome.base, ours: outcome.ours, theirs: outcome.theirs, fields: outcome.conflictingFields };
      const what = conflict.fields.length > 0 ? `both changed ${conflict.fields.join(", ")}` : "the changes overlap";
      return record(db, proposal, content, actorId, {
        to: "conflicted",
        reason: `the file changed in the store since this proposal's base and ${what}; edit the proposal to resolve it`,
        data: { approvedRevision: null, approvedById: null, intendedCommit: null, checks: serializeStoredChecks({ ...stored, conflict }) },
      });
    }
    case "case_twin": {
      // Approved beside a twin that landed first (both were approved at once): nothing was committed.
      const conflict = { base: null, ours: null, theirs: content, fields: ["path"], twin: outcome.twin };
      return record(db, proposal, content, actorId, {
        to: "conflicted",
        reason: `${outcome.twin} entered the team store first, and ${proposal.path} differs from it in letter case only (a macOS or Windows checkout cannot hold both); propose the change to ${outcome.twin}, or reject this proposal`,
        data: { approvedRevision: null, approvedById: null, intendedCommit: null, checks: serializeStoredChecks({ ...stored, conflict }) },
      });
    }
    case "blocked_secret": {
      const checks = { ...stored.checks, secrets: outcome.findings };
      return record(db, proposal, content, actorId, {
        to: "blocked_secret",
        reason: "the store's secret scan found a secret in the content to commit; nothing was pushed",
        data: { approvedRevision: null, approvedById: null, intendedCommit: null, checks: serializeStoredChecks({ ...stored, checks: { ...checks, blockers: listBlockers(checks) } }) },
      });
    }
  }
}

type Outcome = { to: "committed" | "conflicted" | "blocked_secret" | "commit_failed"; reason: string; data?: Parameters<typeof transitionProposal>[1]["data"] };

async function record(db: Db, proposal: ProposalRow, content: string | null, actorId: string | null, outcome: Outcome): Promise<void> {
  await db.$transaction((tx) =>
    transitionProposal(tx, { proposalId: proposal.id, from: "approved", to: outcome.to, revision: proposal.revision, actorId, content, reason: outcome.reason, data: outcome.data }),
  );
}

/**
 * A person as the store's history names them (author, committer, Approved-by): an account name
 * holding a credential (possible before names were checked) is masked, since git history is shared
 * with every member and never rewritten.
 */
function asNamedInStore<Person extends { name: string }>(person: Person): Person {
  return { ...person, name: maskSecretsInQuotedNames(person.name) };
}
