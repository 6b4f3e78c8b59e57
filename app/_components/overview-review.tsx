import Link from "next/link";
import type { ReviewSummary } from "@/lib/overview/overview-types";
import { PROPOSAL_SOURCES } from "@/lib/review/proposal-types";
import { OverviewBarChart } from "./overview-bar-chart";
import { formatDay, formatDuration } from "./overview-format";
import styles from "./overview.module.css";

/** The review queue: what waits, how fast approvals come, where proposals come from and how they end. */
export function OverviewReview({ projectId, review }: { projectId: string; review: ReviewSummary }) {
  const hasProposals = review.openCount > 0 || review.proposalsPerWeek.some((week) => PROPOSAL_SOURCES.some((source) => week[source] > 0)) || review.decisionsBySource.length > 0;
  return (
    <section className={styles.section} aria-labelledby="review-heading" data-testid="overview-review">
      <h3 id="review-heading">Review queue</h3>
      <div className={styles.stats}>
        <Stat label="open proposals" value={String(review.openCount)} href={`/review?project=${encodeURIComponent(projectId)}`} testId="stat-open" />
        <Stat
          label="oldest waiting"
          value={review.oldestOpen ? `${review.oldestOpen.waitingDays} d` : "—"}
          href={review.oldestOpen ? `/review/${encodeURIComponent(review.oldestOpen.proposalId)}` : null}
          testId="stat-oldest"
        />
        <Stat label={`median time to approve (${review.approvalsLast30Days} in 30 days)`} value={review.medianHoursToApprove === null ? "—" : formatDuration(review.medianHoursToApprove)} testId="stat-median" />
      </div>
      {!hasProposals ? (
        <p className={styles.empty}>No proposals yet. They arrive from members (CLI or dashboard), `teammem sync` and extraction.</p>
      ) : (
        <>
          <OverviewBarChart
            title="Proposals per week, by source"
            testId="chart-proposals-per-week"
            isStacked
            rows={review.proposalsPerWeek.map((week) => ({ category: formatDay(week.weekStart), ...Object.fromEntries(PROPOSAL_SOURCES.map((source) => [source, week[source]])) }))}
            series={PROPOSAL_SOURCES.map((source) => ({ key: source, label: source }))}
          />
          {review.decisionsBySource.length === 0 ? (
            <p className="muted">No proposal decided yet.</p>
          ) : (
            <OverviewBarChart
              title="Approved vs rejected, by source (all time)"
              testId="chart-decisions"
              isHorizontal
              rows={review.decisionsBySource.map((row) => ({ category: row.source, approved: row.approved, rejected: row.rejected }))}
              series={[{ key: "approved", label: "approved" }, { key: "rejected", label: "rejected" }]}
              height={Math.max(140, 56 * review.decisionsBySource.length + 60)}
            />
          )}
        </>
      )}
    </section>
  );
}

function Stat({ label, value, href = null, testId }: { label: string; value: string; href?: string | null; testId: string }) {
  const number = <span className={styles.statValue}>{value}</span>;
  return (
    <div className={styles.stat} data-testid={testId}>
      {href ? <Link href={href}>{number}</Link> : number}
      <span className={styles.statLabel}>{label}</span>
    </div>
  );
}
