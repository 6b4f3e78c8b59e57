import { AppError } from "../errors";
import { PROPOSAL_STATES, type ProposalState } from "./proposal-types";

/**
 * Which state may follow which. `null` is "no proposal yet" (submit). Anything not listed is
 * refused with CONFLICT, so a stale page or a second instance cannot move a proposal sideways.
 */
const ALLOWED_FROM: Record<ProposalState, readonly (ProposalState | null)[]> = {
  // submit; reopen of a closed proposal
  submitted: [null, "rejected", "withdrawn", "commit_failed"],
  // a new revision (an edit or an applied redaction) by a reviewer or the proposer
  in_review: ["submitted", "in_review", "blocked_secret", "conflicted"],
  // a revision or a submit with a secret; the store's own scan at commit time; reopen of content with a secret
  blocked_secret: [null, "submitted", "in_review", "blocked_secret", "conflicted", "approved", "rejected", "withdrawn", "commit_failed"],
  // an approval of the exact current revision; a retry after a failed push
  approved: ["submitted", "in_review", "commit_failed"],
  committed: ["approved", "commit_failed"],
  conflicted: ["approved"],
  commit_failed: ["approved"],
  rejected: ["submitted", "in_review", "blocked_secret", "conflicted", "commit_failed"],
  withdrawn: ["submitted", "in_review", "blocked_secret", "conflicted", "commit_failed"],
  superseded: ["submitted", "in_review", "blocked_secret", "conflicted"],
};

export function canTransition(from: ProposalState | null, to: ProposalState): boolean {
  return ALLOWED_FROM[to].includes(from);
}

const ACTIONS: Record<ProposalState, string> = {
  submitted: "reopened",
  in_review: "edited",
  blocked_secret: "edited",
  approved: "approved",
  committed: "committed",
  conflicted: "marked conflicted",
  commit_failed: "marked failed",
  rejected: "rejected",
  withdrawn: "withdrawn",
  superseded: "superseded",
};

export function assertTransition(from: ProposalState | null, to: ProposalState): void {
  if (canTransition(from, to)) return;
  throw new AppError("CONFLICT", `A proposal that is ${describeState(from)} cannot be ${ACTIONS[to]}; reload it to see its current state.`, {
    details: { state: from, target: to },
  });
}

export function describeState(state: ProposalState | null): string {
  return state === null ? "new" : state.replace("_", " ");
}

export function isProposalState(value: unknown): value is ProposalState {
  return typeof value === "string" && (PROPOSAL_STATES as readonly string[]).includes(value);
}
