import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { readMemory } from "@/lib/memories/read-memory";
import { memoryHref } from "@/lib/memories/memory-source";
import { ErrorPanel } from "../../../../_components/error-panel";
import { FindingsList } from "../../../../_components/findings-list";
import { MarkdownBody } from "../../../../_components/markdown";
import { TypeBadge } from "../../../../_components/type-badge";
import { getConfig, getDatabase } from "../../../../_server/context";
import { toShownError } from "../../../../_server/http";
import { requirePageCaller } from "../../../../_server/page-caller";
import { parseSourceParams, safeDecode } from "../source-params";
import { readEditBase } from "@/lib/memories/read-edit-base";
import { hasProjectPermission } from "@/lib/auth/permissions";
import type { Caller } from "@/lib/auth/resolve-caller";
import { findTeamCopies } from "@/lib/memories/find-team-copies";
import { listProposeTargets } from "@/lib/memories/list-propose-targets";
import { prepareTeamProposal } from "@/lib/memories/prepare-team-proposal";
import { resolvePrivateMemoryDir } from "@/lib/memories/resolve-private-memory-dir";
import { loadMemoryFreshness } from "@/lib/stale/load-memory-freshness";
import { MemoryFreshness } from "./memory-freshness";
import { MemoryHistory } from "./memory-history";
import { ProposeChange } from "./propose-change";
import { ProposeToTeam } from "./propose-to-team";

export const metadata: Metadata = { title: "Memory · Memories" };

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ scope: string; source: string; path: string[] }> };

export default async function MemoryPage({ params }: Props) {
  const { scope, source: sourceSegment, path: segments } = await params;
  const caller = await requirePageCaller(`/memories/${scope}/${sourceSegment}/${segments.join("/")}`);
  const source = parseSourceParams({ scope, source: sourceSegment });
  if (!source) notFound();
  try {
    const memory = await readMemory({ config: getConfig(), db: getDatabase(), caller, source, memoryPath: segments.map(safeDecode).join("/") });
    const fields = Object.entries(memory.fields);
    // Readable means allowed to see it; proposing needs member+ (canPropose below).
    const current = source.scope === "team" ? await readEditBase(getConfig(), source.projectId, memory.path) : null;
    const toTeam = source.scope === "private" ? await loadProposeToTeam(caller, source.folder, memory.path) : null;
    const freshness = source.scope === "team" ? await loadMemoryFreshness(getConfig(), getDatabase(), source.projectId, memory.path) : null;
    // "Still true" is the leads' (the API answers 403 to anyone else): others see the signals only.
    const canMarkStillTrue = source.scope === "team" && freshness !== null && (await hasProjectPermission(getDatabase(), caller, source.projectId, "review"));
    // Proposing a change is a member's (the API answers 403 to a viewer): a viewer reads only.
    const canPropose = source.scope === "team" && (await hasProjectPermission(getDatabase(), caller, source.projectId, "propose"));
    return (
      <>
        <p className="muted"><Link href={source.scope === "team" ? `/memories?project=${encodeURIComponent(source.projectId)}` : `/memories?scope=private&folder=${encodeURIComponent(source.folder)}`}>← Memories</Link></p>
        <h1>{memory.name ?? memory.path}</h1>
        <p className="lead row">
          <TypeBadge type={memory.type} /> <span>{memory.description ?? "(no description: recall cannot select it well)"}</span>
        </p>
        <h2>What an agent is shown</h2>
        <pre className="agent-header" data-testid="agent-header">{memory.header}</pre>
        <div className="panel"><MarkdownBody text={memory.body} /></div>
        {memory.isCut && <p className="muted">Only the first 256 KB of this {memory.size.toLocaleString("en-US")}-byte file is shown.</p>}
        {source.scope === "team" && freshness && (
          <>
            <h2>Freshness</h2>
            <MemoryFreshness projectId={source.projectId} path={memory.path} freshness={freshness} canMarkStillTrue={canMarkStillTrue} canPropose={canPropose} />
          </>
        )}
        <h2>Findings</h2>
        <FindingsList findings={memory.findings} emptyText="No findings: this memory follows every rule teammem checks." />
        <h2>Frontmatter</h2>
        {fields.length === 0 ? (
          <p className="muted">No frontmatter fields could be read ({memory.frontmatterStatus}); Claude Code reads this file without a name, description or type.</p>
        ) : (
          <table data-testid="frontmatter-table">
            <tbody>{fields.map(([key, value]) => <tr key={key}><th>{key}</th><td>{typeof value === "string" ? value : JSON.stringify(value)}</td></tr>)}</tbody>
          </table>
        )}
        <h2>File</h2>
        <dl className="settings">
          <dt>Path</dt><dd><code data-testid="memory-path">{memory.displayPath}</code></dd>
          <dt>Written</dt><dd><span className={memory.hasFreshnessWarning ? "stale" : "fresh"}>{memory.ageText}</span> ({memory.mtime.toISOString()})</dd>
          <dt>Size</dt><dd>{memory.size.toLocaleString("en-US")} bytes</dd>
          <dt>Index</dt><dd><Link href={memoryHref(source, "MEMORY.md")}>MEMORY.md of this directory</Link></dd>
        </dl>
        <h2>History</h2>
        <MemoryHistory history={memory.history} />
        {source.scope === "team" && current && canPropose && <ProposeChange projectId={source.projectId} path={memory.path} content={current.content} baseBlob={current.blob} />}
        {source.scope === "team" && !canPropose && <p className="muted" data-testid="propose-members-only">You can read this memory; a member or lead of {source.projectId} can propose to change or retire it.</p>}
        {source.scope === "private" && toTeam && <ProposeToTeam folder={source.folder} path={memory.path} {...toTeam} />}
      </>
    );
  } catch (error) {
    // A hostile path (`..`, absolute, NUL), an unknown file and a source the caller may not see
    // all answer 404; not-found.tsx says what a memory address may hold.
    if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "INVALID_INPUT")) notFound();
    return <ErrorPanel error={toShownError(error, "memory")} />;
  }
}

/** What "Propose to team" needs: what may be sent (T2, T3), where to, and where it already is. */
async function loadProposeToTeam(caller: Caller, folder: string, memoryPath: string) {
  const config = getConfig();
  const db = getDatabase();
  const [draft, targets, copies] = await Promise.all([
    prepareTeamProposal({ config, caller, folder, memoryPath }),
    listProposeTargets(db, caller, folder),
    findTeamCopies({ config, db, caller, memoryDir: await resolvePrivateMemoryDir(config, caller, folder), paths: [memoryPath] }),
  ]);
  return { ...draft, projects: targets.projects, defaultProjectId: targets.defaultProjectId, teamCopies: copies.get(memoryPath) ?? [] };
}
