import type { IndexReport } from "@/lib/memdir/check-index";

type Props = { report: IndexReport; limits: { lines: number; bytes: number } };

/** I2, I3: lines and size against Claude Code's limits, as bars of what is loaded and what is cut. */
export function IndexBudget({ report, limits }: Props) {
  const loadedEntries = report.links.length - report.entriesOutsideWindow.length;
  return (
    <div className="panel" data-testid="index-budget">
      <Budget label="Lines" used={report.lines} loaded={report.loadedLines} limit={limits.lines} unit="lines" />
      <Budget label="Size" used={report.bytes} loaded={Math.min(report.bytes, limits.bytes)} limit={limits.bytes} unit="characters" />
      <p>
        {report.links.length} entries: <strong>{loadedEntries}</strong> inside the loaded window
        {report.entriesOutsideWindow.length > 0 && <>, <strong className="status-fail">{report.entriesOutsideWindow.length}</strong> outside it (never seen by the model)</>}.
        {report.longLines.length > 0 && <> Lines over ~150 characters: {report.longLines.join(", ")}.</>}
      </p>
      {report.warning && <p className="status-warn">{report.warning}</p>}
    </div>
  );
}

function Budget({ label, used, loaded, limit, unit }: { label: string; used: number; loaded: number; limit: number; unit: string }) {
  const scale = Math.max(used, limit);
  const percent = (value: number) => `${(100 * value) / scale}%`;
  return (
    <div className="budget">
      <div className="budget-label">
        <strong>{label}</strong> {used.toLocaleString("en-US")} of {limit.toLocaleString("en-US")} {unit}
        {used > limit && <span className="status-fail"> — over the limit</span>}
      </div>
      <div className="budget-bar" role="img" aria-label={`${label}: ${used} of ${limit} ${unit}, ${used - loaded} not loaded`}>
        <span className="budget-loaded" style={{ width: percent(loaded) }} />
        <span className="budget-cut" style={{ width: percent(Math.max(0, used - loaded)) }} />
        <span className="budget-limit" style={{ left: percent(limit) }} />
      </div>
    </div>
  );
}
