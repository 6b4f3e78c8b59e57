import Link from "next/link";
import type { MemorySources } from "@/lib/memories/list-memory-sources";
import type { MemorySource } from "@/lib/memories/memory-source";

const privateHref = (folder: string) => `/memories?${new URLSearchParams({ scope: "private", folder })}`;

/** Team projects and, for the owner of the Claude home, private folders: separate sources. */
export function SourcePicker({ sources, current }: { sources: MemorySources; current: MemorySource | null }) {
  if (sources.projects.length + sources.privateFolders.length <= 1) return null;
  return (
    <div className="filters" aria-label="Source">
      <span className="filter-label">Team</span>
      {sources.projects.map((project) => (
        <Link key={project.id} href={`/memories?${new URLSearchParams({ project: project.id })}`} aria-current={current?.scope === "team" && current.projectId === project.id}>{project.name}</Link>
      ))}
      {sources.privateFolders.length > 0 && <span className="filter-label">Private</span>}
      {sources.privateFolders.map((folder) => (
        <Link key={folder.folder} href={privateHref(folder.folder)} aria-current={current?.scope === "private" && current.folder === folder.folder}>{folder.folder}</Link>
      ))}
    </div>
  );
}

/** What private memory this machine holds, or why it is not shown. */
export function PrivateFolders({ sources }: { sources: MemorySources }) {
  return (
    <>
      <h2>Private memory on this machine</h2>
      {sources.privateStatus === "no-home" ? (
        <p className="muted">Not shown: TEAMMEM_CLAUDE_HOME is not set (this is a team server).</p>
      ) : sources.privateStatus === "not-owner" ? (
        <p className="muted">Not shown: private memory is visible only to the owner of this Claude home (TEAMMEM_CLAUDE_HOME_OWNER).</p>
      ) : sources.privateFolders.length === 0 ? (
        <div className="panel empty">No Claude Code project under {sources.claudeHome} has memory yet.</div>
      ) : (
        <>
          <p className="muted">
            Private folders are named after a checkout&apos;s path on this machine, not after a team project, so they are listed on their own. Open one to browse it.
          </p>
          <table data-testid="private-table">
            <thead><tr><th>Project folder</th><th>Private</th><th>Team copy</th><th>Unreadable</th></tr></thead>
            <tbody>
              {sources.privateFolders.map((folder) => (
                <tr key={folder.folder}>
                  <td><Link href={privateHref(folder.folder)}><code>{folder.folder}</code></Link></td>
                  <td>{folder.privateCount}</td>
                  <td>{folder.teamCount}</td>
                  <td>{folder.skippedCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
