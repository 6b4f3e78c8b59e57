import type { LintFinding } from "@/lib/memdir/lint-finding";

/** One badge per rule a memory breaks: red for errors, amber for warnings. */
export function LintBadges({ findings }: { findings: LintFinding[] }) {
  const rules = new Map<string, LintFinding["severity"]>();
  for (const finding of findings) if (rules.get(finding.rule) !== "error") rules.set(finding.rule, finding.severity);
  if (rules.size === 0) return <span className="muted">none</span>;
  return (
    <span className="row">
      {[...rules].map(([rule, severity]) => (
        <span key={rule} className={`badge lint-${severity}`} title={severity}>{rule}</span>
      ))}
    </span>
  );
}
