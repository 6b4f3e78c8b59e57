import Link from "next/link";
import type { RecallSummary } from "@/lib/overview/overview-types";
import { OverviewBarChart } from "./overview-bar-chart";
import { formatDay, memoryHref } from "./overview-format";
import styles from "./overview.module.css";

type Props = { projectId: string; recall: RecallSummary | null; hiddenReason: string | null; memoryCount: number };

/** Recall over 30 days from the recall log (leads only): calls per day, most and not recalled. */
export function OverviewRecall({ projectId, recall, hiddenReason, memoryCount }: Props) {
  return (
    <section className={styles.section} aria-labelledby="recall-heading" data-testid="overview-recall">
      <h3 id="recall-heading">Recall, last 30 days</h3>
      {!recall ? (
        <p className="muted">{hiddenReason}</p>
      ) : recall.callsLast30Days === 0 ? (
        <p className={styles.empty} data-testid="overview-no-recall">
          No recall yet in the last 30 days. Agents get team memory through <code>POST /api/projects/{projectId}/recall</code>; try it on <Link href="/recall">Recall</Link>.
        </p>
      ) : (
        <>
          <OverviewBarChart
            title={`Recall calls per day (${recall.callsLast30Days} in 30 days)`}
            testId="chart-recall-per-day"
            rows={recall.callsPerDay.map((day) => ({ category: formatDay(day.day), calls: day.calls }))}
            series={[{ key: "calls", label: "calls" }]}
          />
          <h4 style={{ margin: "0.5rem 0 0.25rem" }}>Most recalled</h4>
          <ol className={styles.list} data-testid="most-recalled">
            {recall.mostRecalled.map((memory) => (
              <li key={memory.path}>
                <Link href={memoryHref(projectId, memory.path)}>{memory.name ?? memory.path}</Link> <span className="muted">— {memory.count}×</span>
              </li>
            ))}
          </ol>
        </>
      )}
      {recall && memoryCount > 0 && (
        <>
          <h4 style={{ margin: "0.75rem 0 0.25rem" }}>Not recalled in 30 days: {recall.notRecalledCount} of {memoryCount}</h4>
          {recall.notRecalled.length > 0 && (
            <ul className={styles.list} data-testid="not-recalled">
              {recall.notRecalled.map((memory) => (
                <li key={memory.path}>
                  <Link href={memoryHref(projectId, memory.path)}>{memory.name ?? memory.path}</Link> <span className="muted">— last changed {memory.changedAt.slice(0, 10)}</span>
                </li>
              ))}
              {recall.notRecalledCount > recall.notRecalled.length && <li className="muted">and {recall.notRecalledCount - recall.notRecalled.length} more (oldest shown first)</li>}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
