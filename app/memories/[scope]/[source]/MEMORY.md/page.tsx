import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { readMemoryIndex } from "@/lib/memories/read-memory-index";
import { memoryHref } from "@/lib/memories/memory-source";
import { ErrorPanel } from "../../../../_components/error-panel";
import { FindingsList } from "../../../../_components/findings-list";
import { getConfig, getDatabase } from "../../../../_server/context";
import { toShownError } from "../../../../_server/http";
import { requirePageCaller } from "../../../../_server/page-caller";
import { parseSourceParams } from "../source-params";
import { IndexBudget } from "./index-budget";
import { RepairIndex } from "./repair-index";

export const metadata: Metadata = { title: "MEMORY.md · Memories" };

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ scope: string; source: string }> };

export default async function MemoryIndexPage({ params }: Props) {
  const { scope, source: sourceSegment } = await params;
  const caller = await requirePageCaller(`/memories/${scope}/${sourceSegment}/MEMORY.md`);
  const source = parseSourceParams({ scope, source: sourceSegment });
  if (!source) notFound();
  try {
    const index = await readMemoryIndex({ config: getConfig(), db: getDatabase(), caller, source });
    const { report } = index;
    const sourceName = source.scope === "team" ? source.projectId : source.folder;
    return (
      <>
        <p className="muted"><Link href={source.scope === "team" ? `/memories?project=${encodeURIComponent(source.projectId)}` : `/memories?scope=private&folder=${encodeURIComponent(source.folder)}`}>← Memories</Link></p>
        <h1>MEMORY.md of {sourceName}</h1>
        <p className="lead">
          {source.scope === "team" ? "The team index in the store" : "Your private index on this machine"}: <code>{index.displayPath}</code>.
          It is loaded whole into every session, so only what fits in {index.limits.lines} lines and {index.limits.bytes.toLocaleString("en-US")} characters reaches the model.
        </p>
        <IndexBudget report={report} limits={index.limits} />
        <h2>Findings</h2>
        <FindingsList findings={report.findings} emptyText="MEMORY.md is in order: every entry points at a memory and every memory has an entry." />
        {report.dangling.length > 0 && (
          <>
            <h3>Entries pointing at missing files</h3>
            <ul data-testid="dangling">{report.dangling.map((link) => <li key={link.line}>line {link.line}: <code>{link.file}</code></li>)}</ul>
          </>
        )}
        {report.orphans.length > 0 && (
          <>
            <h3>Memories missing from the index</h3>
            <ul data-testid="orphans">{report.orphans.map((memory) => <li key={memory.path}>{isMaskedName(memory.path) ? <code>{memory.path}</code> : <Link href={memoryHref(source, memory.path)}><code>{memory.path}</code></Link>}</li>)}</ul>
          </>
        )}
        <h2>Repair</h2>
        {index.canRepair && source.scope === "private" ? (
          <RepairIndex folder={source.folder} beforeHash={index.beforeHash} diff={index.diff} isChanged={index.repair.isChanged} />
        ) : !index.repair.isChanged ? (
          <p className="muted" data-testid="nothing-to-repair">Nothing to repair.</p>
        ) : (
          <p className="muted" data-testid="team-repair-note">
            The team index is not edited here: the server regenerates the store&apos;s MEMORY.md on every approved change, so it is repaired through the review flow.
          </p>
        )}
        <h2>Current MEMORY.md</h2>
        <pre className="index-text" data-testid="index-text">{report.text === "" ? "(no MEMORY.md)" : report.text}</pre>
      </>
    );
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    return <ErrorPanel error={toShownError(error, "memory index")} />;
  }
}

// A file named after a credential is shown by its masked name, never linked: its page is refused.
function isMaskedName(memoryPath: string): boolean {
  return memoryPath.includes("[REDACTED:");
}
