import Link from "next/link";
import { z } from "zod";
import { memoryAge, needsFreshnessWarning } from "@/lib/memdir/age";
import { MEMORY_TYPES } from "@/lib/memdir/frontmatter";
import { listClaudeProjects, type ClaudeProjectMemory } from "@/lib/memdir/list-claude-projects";
import { listProjectMemories, listStoreProjects, refreshStore } from "@/lib/store/read-store";
import { ErrorPanel } from "../_components/error-panel";
import { TypeBadge } from "../_components/type-badge";
import { listVisibleProjectIds } from "@/lib/auth/permissions";
import { getConfig, getDatabase } from "../_server/context";
import { toShownError } from "../_server/http";
import { requirePageCaller } from "../_server/page-caller";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 25;

const Query = z.object({
  project: z.string().max(100).optional(),
  type: z.enum(MEMORY_TYPES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function MemoriesPage({ searchParams }: Props) {
  const caller = await requirePageCaller("/memories");
  const query = Query.parse(firstValues(await searchParams));
  const config = getConfig();
  try {
    await refreshStore(config);
    const visible = new Set(await listVisibleProjectIds(getDatabase(), caller));
    const projects = (await listStoreProjects(config)).filter((project) => visible.has(project.id));
    const project = projects.find((candidate) => candidate.id === query.project) ?? projects[0];
    const all = project ? await listProjectMemories(config, project.id) : [];
    const filtered = query.type ? all.filter((memory) => memory.type === query.type) : all;
    const pageCount = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
    const page = Math.min(query.page, pageCount);
    const shown = filtered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    // Private memory is shown only to the owner of the Claude home, never to anyone else.
    const isHomeOwner = config.claudeHome !== null && caller.email === config.claudeHomeOwner;
    const privateProjects = isHomeOwner && config.claudeHome ? await listClaudeProjects(config.claudeHome) : null;
    const link = (changes: Record<string, string | number | undefined>) =>
      `/memories?${new URLSearchParams(Object.entries({ project: project?.id, type: query.type, page: 1, ...changes }).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]))}`;

    return (
      <>
        <h1>Memories</h1>
        {!project ? (
          <div className="panel empty">No team memories yet: the store has no projects.</div>
        ) : (
          <>
            <p className="lead">
              Team memory of <strong>{project.name}</strong> in the store: {all.length} memories. Older than a day
              means agents get a freshness warning with it.
            </p>
            {projects.length > 1 && (
              <div className="filters" aria-label="Projects">
                {projects.map((candidate) => (
                  <Link key={candidate.id} href={`/memories?project=${encodeURIComponent(candidate.id)}`} aria-current={candidate.id === project.id}>{candidate.name}</Link>
                ))}
              </div>
            )}
            <div className="filters" aria-label="Type">
              <Link href={link({ type: undefined })} aria-current={!query.type}>All ({all.length})</Link>
              {MEMORY_TYPES.map((type) => (
                <Link key={type} href={link({ type })} aria-current={query.type === type}>
                  {type} ({all.filter((memory) => memory.type === type).length})
                </Link>
              ))}
            </div>
            {shown.length === 0 ? (
              <div className="panel empty">No {query.type ?? ""} memories in this project.</div>
            ) : (
              <table data-testid="memory-table">
                <thead>
                  <tr><th>Type</th><th>Memory</th><th>File</th><th className="nowrap">Written</th></tr>
                </thead>
                <tbody>
                  {shown.map((memory) => (
                    <tr key={memory.path}>
                      <td><TypeBadge type={memory.type} /></td>
                      <td>
                        <strong>{memory.name ?? memory.path}</strong>
                        <div className="muted">{memory.description ?? "(no description: recall cannot select it well)"}</div>
                      </td>
                      <td><code>{memory.path}</code></td>
                      <td className="nowrap">
                        {memory.updatedAt ? (
                          <span className={needsFreshnessWarning(memory.updatedAt) ? "stale" : "fresh"} title={memory.updatedAt.toISOString()}>
                            {memoryAge(memory.updatedAt)}
                            {needsFreshnessWarning(memory.updatedAt) && <><br /><span className="badge warn-badge">freshness warning</span></>}
                          </span>
                        ) : "unknown"}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {pageCount > 1 && (
              <nav className="pager" aria-label="Pages">
                {page > 1 ? <Link href={link({ page: page - 1 })}>← Newer</Link> : <span />}
                <span className="muted">Page {page} of {pageCount}</span>
                {page < pageCount ? <Link href={link({ page: page + 1 })}>Older →</Link> : <span />}
              </nav>
            )}
          </>
        )}
        <PrivateMemory claudeHome={config.claudeHome} isOwner={isHomeOwner} projects={privateProjects} />
      </>
    );
  } catch (error) {
    return <ErrorPanel error={toShownError(error, "memories")} />;
  }
}

function PrivateMemory({ claudeHome, isOwner, projects }: { claudeHome: string | null; isOwner: boolean; projects: ClaudeProjectMemory[] | null }) {
  return (
    <>
      <h2>Private memory on this machine</h2>
      {!claudeHome ? (
        <p className="muted">Not shown: TEAMMEM_CLAUDE_HOME is not set (this is a team server).</p>
      ) : !isOwner || !projects ? (
        <p className="muted">Not shown: private memory is visible only to the owner of this Claude home (TEAMMEM_CLAUDE_HOME_OWNER).</p>
      ) : projects.length === 0 ? (
        <div className="panel empty">No Claude Code project under {claudeHome} has memory yet.</div>
      ) : (
        <table data-testid="private-table">
          <thead><tr><th>Project folder</th><th>Private</th><th>Team copy</th><th>Unreadable</th></tr></thead>
          <tbody>
            {projects.map((project) => (
              <tr key={project.folder}>
                <td><code>{project.folder}</code></td>
                <td>{project.privateCount}</td>
                <td>{project.teamCount}</td>
                <td>{project.skippedCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
}
