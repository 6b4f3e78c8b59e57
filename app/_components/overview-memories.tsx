import Link from "next/link";
import type { FreshnessSummary, MemorySummary } from "@/lib/overview/overview-types";
import { isStaleSignalKind, SIGNAL_LABEL } from "@/lib/stale/stale-signal";
import { OverviewBarChart } from "./overview-bar-chart";
import { memoryHref } from "./overview-format";
import styles from "./overview.module.css";

type Props = { projectId: string; memories: MemorySummary; freshness: FreshnessSummary };

/** Memories by type (and freshness state once checked) and by age of their last commit. */
export function OverviewMemories({ projectId, memories, freshness }: Props) {
  if (memories.total === 0) {
    return (
      <section className={styles.section} aria-labelledby="memories-heading">
        <h3 id="memories-heading">Memories</h3>
        <p className={styles.empty} data-testid="overview-no-memories">
          No team memories yet. Members propose them (CLI, sync or the dashboard); they appear here once a lead approves them. <Link href={`/projects/${encodeURIComponent(projectId)}`}>Next steps</Link>
        </p>
      </section>
    );
  }
  const isChecked = freshness.status === "checked";
  return (
    <section className={styles.section} aria-labelledby="memories-heading">
      <h3 id="memories-heading">Memories: {memories.total}</h3>
      {isChecked ? (
        <OverviewBarChart
          title="Memories by type and freshness"
          testId="chart-memories-by-type"
          isStacked
          rows={freshness.byTypeAndState.map((row) => ({ category: row.type, fresh: row.fresh, aging: row.aging, stale: row.stale }))}
          series={[{ key: "fresh", label: "fresh" }, { key: "aging", label: "aging" }, { key: "stale", label: "stale" }]}
        />
      ) : (
        <OverviewBarChart title="Memories by type" testId="chart-memories-by-type" rows={memories.byType.map((row) => ({ category: row.type, memories: row.count }))} series={[{ key: "memories", label: "memories" }]} />
      )}
      <OverviewBarChart
        title="Age since last commit"
        testId="chart-age"
        rows={memories.ageBuckets.map((bucket) => ({ category: bucket.label, memories: bucket.count }))}
        series={[{ key: "memories", label: "memories" }]}
      />
    </section>
  );
}

/** Stale memories by reason, the ten stalest linked; or why freshness is not known. */
export function OverviewStale({ projectId, freshness }: { projectId: string; freshness: FreshnessSummary }) {
  return (
    <section className={styles.section} aria-labelledby="stale-heading" data-testid="overview-stale">
      <h3 id="stale-heading">Stale memories</h3>
      {freshness.status === "not-checked" ? (
        <p className={styles.empty}>Freshness not checked yet. {freshness.reason} Until a check runs, no memory is reported as fresh.</p>
      ) : (
        <>
          {freshness.codeRepoProblem && <p className="muted">Code citations not checked: {freshness.codeRepoProblem}</p>}
          {freshness.totals.stale === 0 ? (
            <p className={styles.empty}>No stale memories{freshness.checkedAt ? ` at the last check` : ""}: {freshness.totals.fresh} fresh, {freshness.totals.aging} aging.</p>
          ) : (
            <>
              <OverviewBarChart title="Stale memories by reason" testId="chart-stale-reasons" isHorizontal rows={freshness.staleByReason.map((row) => ({ category: isStaleSignalKind(row.kind) ? SIGNAL_LABEL[row.kind] : row.kind, memories: row.count }))} series={[{ key: "memories", label: "memories" }]} height={Math.max(120, 36 * freshness.staleByReason.length + 40)} />
              <h4 style={{ margin: "0.5rem 0 0.25rem" }}>The stalest {freshness.topStale.length}</h4>
              <ol className={styles.list} data-testid="top-stale">
                {freshness.topStale.map((memory) => (
                  <li key={memory.path}>
                    <Link href={memoryHref(projectId, memory.path)}>{memory.name ?? memory.path}</Link>
                    {memory.reasons[0] && <span className="muted"> — {memory.reasons[0]}{memory.reasons.length > 1 ? ` (+${memory.reasons.length - 1} more)` : ""}</span>}
                  </li>
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </section>
  );
}
