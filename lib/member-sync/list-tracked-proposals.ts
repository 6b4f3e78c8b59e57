import type { Config } from "../config";
import type { Db } from "../db/client";
import { maskOptionalText } from "../secrets/mask-secret-ranges";
import { parseJsonOrNull } from "../parse-json";
import { isAncestor } from "../store/git";
import { readSyncFiles } from "./read-sync-changes";
import { MAX_TRACKED_PROPOSALS, type TrackedProposal } from "./sync-answer";

// The client asks about the rest in later syncs, in turn (lib/sync/sync-state.ts, proposalIdsToAsk).
export { MAX_TRACKED_PROPOSALS };
const DECIDED = new Set(["committed", "rejected", "withdrawn", "superseded"]);

const OPEN = ["submitted", "in_review", "approved", "conflicted", "blocked_secret", "commit_failed"];

export type ListTrackedProposalsOptions = {
  projectId: string;
  userId: string;
  head: string | null;
  proposalIds: string[];
  /**
   * Also the caller's open sync proposals, asked or not: a client comparing in full (its state
   * lost) learns what waits, so a file whose retirement it proposed is not written back.
   */
  includeOpen?: boolean;
};

/**
 * Where the caller's own proposals in this project stand, so `teammem sync` knows which local
 * files still wait for review, which landed, and which were turned down (with the reason). For a
 * decided one the file at the head comes along: a rejected retirement brings the file back.
 * Someone else's proposal ids are answered as if they did not exist.
 */
export async function listTrackedProposals(config: Config, db: Db, options: ListTrackedProposalsOptions): Promise<TrackedProposal[]> {
  const open = options.includeOpen
    ? await db.proposal.findMany({ where: { projectId: options.projectId, proposerId: options.userId, source: "sync", state: { in: OPEN } }, select: { id: true }, orderBy: { createdAt: "desc" }, take: MAX_TRACKED_PROPOSALS })
    : [];
  const ids = [...new Set([...options.proposalIds.slice(0, MAX_TRACKED_PROPOSALS), ...open.map((proposal) => proposal.id)])];
  if (ids.length === 0) return [];
  const proposals = await db.proposal.findMany({
    where: { id: { in: ids }, projectId: options.projectId, proposerId: options.userId },
    select: { id: true, path: true, state: true, revision: true, rejectionReason: true, committedCommit: true, provenance: true },
  });
  const revisions = await db.proposalRevision.findMany({ where: { proposalId: { in: proposals.map((proposal) => proposal.id) } }, select: { proposalId: true, revision: true, content: true } });
  const retirements = new Set(revisions.filter((revision) => revision.content === null && proposals.some((proposal) => proposal.id === revision.proposalId && proposal.revision === revision.revision)).map((revision) => revision.proposalId));
  const decidedPaths = [...new Set(proposals.filter((proposal) => DECIDED.has(proposal.state)).map((proposal) => proposal.path))];
  const current = options.head ? await readSyncFiles(config, db, { projectId: options.projectId, head: options.head, paths: decidedPaths }) : [];
  const currentByPath = new Map(current.map((file) => [file.path, file]));
  return Promise.all(
    proposals.map(async (proposal) => ({
      id: proposal.id,
      path: proposal.path,
      state: proposal.state,
      isRetirement: retirements.has(proposal.id),
      rejectionReason: maskOptionalText(proposal.rejectionReason),
      hasLanded: Boolean(proposal.committedCommit && options.head && (await isAncestor(config.storeCloneDir, proposal.committedCommit, options.head))),
      ...(DECIDED.has(proposal.state) ? { current: currentByPath.get(proposal.path) ?? null } : {}),
      ...(options.includeOpen ? { checkout: checkoutOf(proposal.provenance) } : {}),
    })),
  );
}

/** The checkout a sync proposal was made in (its provenance), so a client tells its own from the member's other machines'. */
function checkoutOf(provenance: string): string | null {
  const value = parseJsonOrNull(provenance);
  const checkout = typeof value === "object" && value !== null ? (value as Record<string, unknown>).checkout : null;
  return typeof checkout === "string" && checkout !== "" ? checkout : null;
}
