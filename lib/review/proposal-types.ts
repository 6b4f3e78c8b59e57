import type { MemoryType } from "../memdir/frontmatter";
import type { LintFinding } from "../memdir/lint-finding";
import type { SecretFinding } from "../secrets/secret-finding";

/** Where a proposal stands. Side exits keep their content: nothing is ever deleted. */
export const PROPOSAL_STATES = [
  "submitted",
  "in_review",
  "approved",
  "committed",
  "rejected",
  "withdrawn",
  "superseded",
  "conflicted",
  "blocked_secret",
  "commit_failed",
] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/** States that still need someone to act: counted in the navigation. */
export const OPEN_PROPOSAL_STATES = ["submitted", "in_review", "conflicted", "blocked_secret", "commit_failed"] as const satisfies readonly ProposalState[];

/**
 * Where a proposal came from, decided by the server from the route it arrived through (a token on
 * the proposals API: member; the dashboard's session: dashboard; sync and extraction: their own
 * routes), never claimed by the client.
 */
export const PROPOSAL_SOURCES = ["member", "sync", "extraction", "dashboard"] as const;
export type ProposalSource = (typeof PROPOSAL_SOURCES)[number];

export type ScopeVerdict = "team" | "needs-confirmation" | "private-only";

export type DuplicateCandidate = {
  /** Relative to the project folder, like the proposal's path. */
  path: string;
  name: string | null;
  /** 0..1: how alike the two memories read (1 = the same words). */
  similarity: number;
  kind: "same-name" | "similar";
};

/** What the reviewer is shown. Secret findings carry ranges and masked previews, never values. */
export type ProposalChecks = {
  lint: LintFinding[];
  secrets: SecretFinding[];
  scope: { verdict: ScopeVerdict; reasons: string[]; isAbsoluteRule: boolean };
  duplicates: DuplicateCandidate[];
  /** Human sentences; empty = may be approved. */
  blockers: string[];
};

export type ProposalPerson = { id: string; name: string; email: string };

export type ProposalSummary = {
  id: string;
  projectId: string;
  path: string;
  source: ProposalSource;
  state: ProposalState;
  revision: number;
  proposer: ProposalPerson;
  createdAt: Date;
  updatedAt: Date;
  name: string | null;
  type: MemoryType | null;
  /** The proposal removes the file from the store (content null). */
  isRetirement: boolean;
  checks: ProposalChecks;
};

/** `twin`: the store file this one differs from in letter case only (fields: ["path"]), when that is the conflict. */
export type ProposalConflict = { base: string | null; ours: string | null; theirs: string | null; fields: string[]; twin?: string };

// No hash of the revision's text: it is the unmasked text's, and a short secret in it could be
// guessed offline against it by anyone who may read the proposal.
export type ProposalRevisionView = { revision: number; authorName: string; note: string | null; createdAt: Date };

export type ProposalEventView = {
  at: Date;
  actorName: string | null;
  fromState: ProposalState | null;
  toState: ProposalState;
  revision: number;
  reason: string | null;
};

export type ProposalDetail = ProposalSummary & {
  /** The current revision's whole file; null when the proposal retires the file. */
  content: string | null;
  baseBlob: string | null;
  /** The file as it was when the proposal was made (null for a new file). */
  baseContent: string | null;
  /** The file at the store's main branch now (null when absent). */
  headContent: string | null;
  provenance: Record<string, unknown>;
  teamConventionConfirmed: boolean;
  approvedRevision: number | null;
  committedCommit: string | null;
  /** When the commit was recorded (null until committed). */
  committedAt: Date | null;
  /** The proposer's role in the project now; null when they no longer have one. */
  proposerRole: "lead" | "member" | "viewer" | null;
  rejectionReason: string | null;
  /** Set while the proposal is conflicted: the three versions the reviewer resolves. */
  conflict: ProposalConflict | null;
  revisions: ProposalRevisionView[];
  events: ProposalEventView[];
};
