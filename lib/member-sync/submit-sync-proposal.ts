import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { getProposal } from "../review/get-proposal";
import { contentHash } from "../review/proposal-records";
import type { ProposalDetail } from "../review/proposal-types";
import { reviseProposal } from "../review/revise-proposal";
import { submitProposal } from "../review/submit-proposal";
import { findFormatTokensInName } from "../secrets/find-format-tokens";

/** A first attempt that never finished (its process died) is taken over after this long. */
const CLAIM_TIMEOUT_MS = 120_000;

export type SubmitSyncProposalInput = {
  projectId: string;
  proposerId: string;
  path: string;
  content: string | null;
  baseBlob: string | null;
  /** Chosen by the client once per local change and kept in its outbox until acknowledged. */
  idempotencyKey: string;
  provenance: Record<string, unknown>;
};

export type SyncProposalOutcome = { proposal: ProposalDetail; isNew: boolean; isRevision: boolean };

/** States in which the proposer's next edit of the same file becomes a new revision of it. */
const REVISABLE_STATES = ["submitted", "in_review", "blocked_secret", "conflicted"];

/**
 * A proposal from `teammem sync` (source `sync`), exactly once per idempotency key: the key is
 * claimed before the proposal is made, so a retry after a lost answer (or a crash of the client)
 * returns the proposal the key already made. A claim whose attempt died is taken over.
 *
 * A file edited again while the member's sync proposal for it waits for review becomes the next
 * revision of that proposal (made by the proposer), not a second proposal: the reviewer keeps
 * one thread per file with its history, and any approval given to the old words is cleared.
 * Members cannot call the reviewers' revise route, so the sync route does it for their own sync
 * proposals only; withdrawing and resubmitting would have lost the review thread.
 */
export async function submitSyncProposal(config: Config, db: Db, input: SubmitSyncProposalInput): Promise<SyncProposalOutcome> {
  // Stored as sent: a key that is a provider's token (pasted, or a client's bug) would sit in clear.
  const token = findFormatTokensInName(input.idempotencyKey)[0];
  if (token) throw new AppError("INVALID_INPUT", `idempotencyKey: it has the form of a credential (${token.kind}); use a random key.`, { details: { field: "idempotencyKey" } });
  const key = { projectId: input.projectId, userId: input.proposerId, idempotencyKey: input.idempotencyKey };
  const existing = await claimKey(db, key);
  if (existing) return { proposal: await getProposal(config, db, existing), isNew: false, isRevision: false };
  try {
    const open = await db.proposal.findFirst({
      where: { projectId: input.projectId, proposerId: input.proposerId, path: input.path, source: "sync", state: { in: REVISABLE_STATES } },
      orderBy: { createdAt: "desc" },
      select: { id: true, revision: true },
    });
    // The same text again (a client that lost its state re-offers what waits): no empty revision.
    const isSameText = open ? (await db.proposalRevision.findFirst({ where: { proposalId: open.id, revision: open.revision } }))?.contentHash === contentHash(input.content) : false;
    const proposal = !open
      ? await submitProposal(config, db, { ...input, source: "sync" })
      : isSameText
        ? await getProposal(config, db, open.id)
        : await reviseProposal(config, db, { proposalId: open.id, actorId: input.proposerId, content: input.content, note: "edited again in the member's team/ folder (teammem sync)" });
    await db.syncSubmission.update({ where: { projectId_userId_idempotencyKey: key }, data: { proposalId: proposal.id } });
    return { proposal, isNew: !open, isRevision: Boolean(open) && !isSameText };
  } catch (error) {
    // Refused (invalid, archived project…): the key is free again, a corrected retry may use it.
    await db.syncSubmission.deleteMany({ where: { ...key, proposalId: null } });
    throw error;
  }
}

type Key = { projectId: string; userId: string; idempotencyKey: string };

/** Claims the key; returns the proposal id when the key already made one. */
async function claimKey(db: Db, key: Key): Promise<string | null> {
  try {
    await db.syncSubmission.create({ data: { ...key, claimedAt: new Date() } });
    return null;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const claim = await db.syncSubmission.findUnique({ where: { projectId_userId_idempotencyKey: key } });
  if (claim?.proposalId) return claim.proposalId;
  const takenOver = await db.syncSubmission.updateMany({
    where: { ...key, proposalId: null, claimedAt: { lt: new Date(Date.now() - CLAIM_TIMEOUT_MS) } },
    data: { claimedAt: new Date() },
  });
  if (takenOver.count === 1) return null;
  throw new AppError("CONFLICT", "This change is being submitted by another request right now; sync again in a minute.");
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "P2002";
}
