import type { ProjectRole } from "../auth/permissions";
import type { ProposalSource, ProposalState } from "../review/proposal-types";

/**
 * What the Overview shows for one project. Every field is plain JSON (dates as ISO strings), so
 * the page, its client-side charts and GET /api/projects/:id/overview share one shape.
 */
export type ProjectOverview = {
  projectId: string;
  projectName: string;
  /** The caller's role here; decides what is included (the recall log is for leads). */
  role: ProjectRole | "admin";
  generatedAt: string;
  memories: MemorySummary;
  freshness: FreshnessSummary;
  review: ReviewSummary;
  /** Null when the caller may not read the recall log; `recallHiddenReason` says why. */
  recall: RecallSummary | null;
  recallHiddenReason: string | null;
};

export type MemoryTypeLabel = "feedback" | "project" | "reference" | "user" | "untyped";

export type MemorySummary = {
  total: number;
  byType: { type: MemoryTypeLabel; count: number }[];
  /** Age = the file's last commit time in the store, bucketed; oldest bucket last. */
  ageBuckets: AgeBucket[];
  lastChangedAt: string | null;
};

export type AgeBucket = { label: string; minDays: number; maxDays: number | null; count: number };

export type FreshnessState = "fresh" | "aging" | "stale";

export type FreshnessSummary =
  | { status: "not-checked"; reason: string }
  | {
      status: "checked";
      checkedAt: string | null;
      codeCommit: string | null;
      /** Why code citations were not checked (no repository configured, unreachable), or null. */
      codeRepoProblem: string | null;
      byTypeAndState: ({ type: MemoryTypeLabel } & Record<FreshnessState, number>)[];
      totals: Record<FreshnessState, number>;
      staleByReason: { kind: string; count: number }[];
      /** The ten stalest memories, highest score first. */
      topStale: StaleMemoryLine[];
    };

export type StaleMemoryLine = { path: string; name: string | null; type: string | null; score: number; reasons: string[] };

export type ReviewSummary = {
  openCount: number;
  openByState: { state: ProposalState; count: number }[];
  oldestOpen: { proposalId: string; path: string; createdAt: string; waitingDays: number } | null;
  /** Median hours from submission to approval, over approvals in the last 30 days. */
  medianHoursToApprove: number | null;
  approvalsLast30Days: number;
  /** The last eight calendar weeks (Monday, UTC), oldest first; the last one is this week so far. */
  proposalsPerWeek: ({ weekStart: string } & Record<ProposalSource, number>)[];
  /** Every decided proposal so far: approved (committed included) and rejected, per source. */
  decisionsBySource: { source: ProposalSource; approved: number; rejected: number }[];
};

export type RecallSummary = {
  /** The last 30 days (UTC), oldest first, days without calls included. */
  callsPerDay: { day: string; calls: number }[];
  callsLast30Days: number;
  mostRecalled: { path: string; name: string | null; count: number }[];
  /** Team memories that no recall selected in the last 30 days. */
  notRecalledCount: number;
  /** The oldest of them (by last change), a few. */
  notRecalled: { path: string; name: string | null; changedAt: string }[];
};
