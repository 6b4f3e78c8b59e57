import { isStaleSignalKind, SIGNAL_LABEL } from "@/lib/stale/stale-signal";
import type { MemoryRow } from "@/lib/memories/memory-row";

/** The staleness verdict in words (never colour alone): state, then the reasons. */
export function FreshnessBadge({ freshness }: { freshness: MemoryRow["freshness"] }) {
  if (!freshness || freshness.state === null) return <span className="badge" title="The staleness checks have not reached this file yet">not checked</span>;
  const reasons = freshness.reasons.filter(isStaleSignalKind).map((reason) => SIGNAL_LABEL[reason]);
  return (
    <span>
      <span className={`badge ${freshness.state === "stale" ? "warn-badge" : ""}`}>{freshness.state}</span>
      {reasons.length > 0 && <div className="muted">{reasons.join(", ")}</div>}
    </span>
  );
}
