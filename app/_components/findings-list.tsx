import type { LintFinding } from "@/lib/memdir/lint-finding";

/** Findings with the spec rule they cite and, when teammem can say it, the fix. */
export function FindingsList({ findings, emptyText }: { findings: LintFinding[]; emptyText: string }) {
  if (findings.length === 0) return <p className="fresh" data-testid="no-findings">{emptyText}</p>;
  return (
    <ul className="findings" data-testid="findings">
      {findings.map((finding, index) => (
        <li key={`${finding.rule}-${finding.line ?? 0}-${index}`}>
          <span className={`badge lint-${finding.severity}`}>{finding.rule}</span>{" "}
          {finding.line !== undefined && <span className="muted">line {finding.line}: </span>}
          {finding.message}
          {finding.fix && <div className="fix"><strong>Fix:</strong> {finding.fix}</div>}
        </li>
      ))}
    </ul>
  );
}
