import Link from "next/link";
import type { MemoryRow } from "@/lib/memories/memory-row";
import { memoryHref, type MemorySource } from "@/lib/memories/memory-source";
import { LintBadges } from "../_components/lint-badges";
import { TypeBadge } from "../_components/type-badge";

export function MemoryTable({ source, memories }: { source: MemorySource; memories: MemoryRow[] }) {
  return (
    <table data-testid="memory-table">
      <thead>
        <tr><th>Type</th><th>Memory</th><th>Findings</th><th className="nowrap">Written</th></tr>
      </thead>
      <tbody>
        {memories.map((memory) => (
          <tr key={memory.path}>
            <td><TypeBadge type={memory.type} /></td>
            <td>
              <Link href={memoryHref(source, memory.path)}><strong>{memory.name ?? memory.path}</strong></Link>
              <div className="muted">{memory.description ?? "(no description: recall cannot select it well)"}</div>
              <code className="path">{memory.path}</code>
            </td>
            <td><LintBadges findings={memory.findings} /></td>
            <td className="nowrap">
              <span className={memory.hasFreshnessWarning ? "stale" : "fresh"} title={memory.mtime.toISOString()}>
                {memory.ageText}
                {memory.hasFreshnessWarning && <><br /><span className="badge warn-badge">freshness warning</span></>}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
