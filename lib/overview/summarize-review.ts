import type { Db } from "../db/client";
import { OPEN_PROPOSAL_STATES, PROPOSAL_SOURCES, type ProposalSource, type ProposalState } from "../review/proposal-types";
import type { ReviewSummary } from "./overview-types";

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKS_SHOWN = 8;
const APPROVED_STATES = ["approved", "committed"] as const;

/**
 * The review queue of a project in a few grouped queries: what is open (by state) and the
 * oldest waiting, how fast approvals came over the last 30 days, proposals per calendar week by
 * source, and approved vs rejected per source. Only the approval times of the last 30 days are
 * read row by row (a median needs them); the rest is counted by the database.
 */
export async function summarizeReview(db: Db, projectId: string, now: Date): Promise<ReviewSummary> {
  const open = { projectId, state: { in: [...OPEN_PROPOSAL_STATES] } };
  const weeks = lastWeekStarts(now, WEEKS_SHOWN);
  const [openRows, oldest, approvals, weekRows, decisionRows] = await Promise.all([
    db.proposal.groupBy({ by: ["state"], where: open, _count: { _all: true } }),
    db.proposal.findFirst({ where: open, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, path: true, createdAt: true } }),
    db.proposalEvent.findMany({
      where: { toState: "approved", at: { gte: new Date(now.getTime() - 30 * DAY_MS) }, proposal: { projectId } },
      select: { at: true, proposal: { select: { createdAt: true } } },
    }),
    Promise.all(weeks.map((start, index) =>
      db.proposal.groupBy({ by: ["source"], where: { projectId, createdAt: { gte: start, ...(weeks[index + 1] ? { lt: weeks[index + 1] } : {}) } }, _count: { _all: true } }))),
    db.proposal.groupBy({ by: ["source", "state"], where: { projectId, state: { in: [...APPROVED_STATES, "rejected"] } }, _count: { _all: true } }),
  ]);

  const openByState = openRows.map((row) => ({ state: row.state as ProposalState, count: row._count._all })).sort((a, b) => b.count - a.count);
  return {
    openCount: openByState.reduce((sum, row) => sum + row.count, 0),
    openByState,
    oldestOpen: oldest && { proposalId: oldest.id, path: oldest.path, createdAt: oldest.createdAt.toISOString(), waitingDays: Math.max(0, Math.floor((now.getTime() - oldest.createdAt.getTime()) / DAY_MS)) },
    medianHoursToApprove: median(approvals.map((event) => (event.at.getTime() - event.proposal.createdAt.getTime()) / 3_600_000)),
    approvalsLast30Days: approvals.length,
    proposalsPerWeek: weeks.map((start, index) => ({ weekStart: start.toISOString().slice(0, 10), ...countsBySource(weekRows[index]!) })),
    decisionsBySource: PROPOSAL_SOURCES.map((source) => ({
      source,
      approved: sumWhere(decisionRows, (row) => row.source === source && (APPROVED_STATES as readonly string[]).includes(row.state)),
      rejected: sumWhere(decisionRows, (row) => row.source === source && row.state === "rejected"),
    })).filter((row) => row.approved + row.rejected > 0),
  };
}

/** Monday 00:00 UTC of this week and the weeks before it, oldest first. */
export function lastWeekStarts(now: Date, count: number): Date[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  const thisMonday = today - sinceMonday * DAY_MS;
  return Array.from({ length: count }, (_, index) => new Date(thisMonday - (count - 1 - index) * 7 * DAY_MS));
}

function countsBySource(rows: { source: string; _count: { _all: number } }[]): Record<ProposalSource, number> {
  const counts = Object.fromEntries(PROPOSAL_SOURCES.map((source) => [source, 0])) as Record<ProposalSource, number>;
  for (const row of rows) if ((PROPOSAL_SOURCES as readonly string[]).includes(row.source)) counts[row.source as ProposalSource] += row._count._all;
  return counts;
}

function sumWhere<Row extends { _count: { _all: number } }>(rows: Row[], matches: (row: Row) => boolean): number {
  return rows.filter(matches).reduce((sum, row) => sum + row._count._all, 0);
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
