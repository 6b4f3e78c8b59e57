import Link from "next/link";
import type { TeamCopy } from "@/lib/memories/find-team-copies";
import type { MemoryRow } from "@/lib/memories/memory-row";
import { memoryHref, type MemorySource } from "@/lib/memories/memory-source";
import { LintBadges } from "../_components/lint-badges";
import { TypeBadge } from "../_components/type-badge";
import { FreshnessBadge } from "./freshness-badge";

/** `teamCopies`: for private memory, the team memories that already hold a row (by its path). */
export function MemoryTable({ source, memories, teamCopies }: { source: MemorySource; memories: MemoryRow[]; teamCopies?: Record<string, TeamCopy[]> }) {
  return (
    <table data-testid="memory-table">
      <thead>
        <tr><th>Type</th><th>Memory</th><th>Findings</th>{source.scope === "team" && <th>Freshness</th>}<th className="nowrap">Written</th></tr>
      </thead>
      <tbody>
        {memories.map((memory) => (
          <tr key={memory.path}>
            <td><TypeBadge type={memory.type} /></td>
            <td>
              <Link href={memoryHref(source, memory.path)}><strong>{memory.name ?? memory.path}</strong></Link>
              <div className="muted">{memory.description ?? "(no description: recall cannot select it well)"}</div>
              <code className="path">{memory.path}</code>
              {teamCopies?.[memory.path]?.map((copy) => (
                <span key={`${copy.projectId}/${copy.path}`} className="badge" data-testid="in-team" title={copy.match === "same-content" ? "The team store holds the same text" : "The team store has a memory of this name with different text"}>
                  {" "}in team: {copy.projectId}{copy.match === "same-content" ? "" : " (same name)"}
                </span>
              ))}
            </td>
            <td><LintBadges findings={memory.findings} /></td>
            {source.scope === "team" && <td data-testid="freshness"><FreshnessBadge freshness={memory.freshness} /></td>}
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
