import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { isAppError } from "@/lib/errors";
import { MEMORY_TYPES } from "@/lib/memdir/frontmatter";
import { AGE_BUCKET_IDS, FINDING_FILTER, MEMORY_SORTS } from "@/lib/memories/filter-memories";
import { findTeamCopies } from "@/lib/memories/find-team-copies";
import { listMemories } from "@/lib/memories/list-memories";
import { resolvePrivateMemoryDir } from "@/lib/memories/resolve-private-memory-dir";
import { memoryHref, MEMORY_SCOPES } from "@/lib/memories/memory-source";
import { FRESHNESS_STATES, STALE_SIGNAL_KINDS } from "@/lib/stale/stale-signal";
import { ErrorPanel } from "../_components/error-panel";
import { firstValues } from "../_components/first-values";
import { getConfig, getDatabase } from "../_server/context";
import { toShownError } from "../_server/http";
import { requirePageCaller } from "../_server/page-caller";
import { NextSteps } from "../projects/next-steps";
import { BulkRetire } from "./bulk-retire";
import { FilterBar, type QueryLink } from "./filter-bar";
import { MemoryTable } from "./memory-table";
import { PrivateFolders, SourcePicker } from "./source-picker";

export const metadata: Metadata = { title: "Memories" };

export const dynamic = "force-dynamic";

// A bad value in the address falls back to "no filter" instead of an error page.
const Query = z.object({
  scope: z.enum(MEMORY_SCOPES).catch("team").default("team"),
  project: z.string().max(100).optional().catch(undefined),
  folder: z.string().max(300).optional().catch(undefined),
  type: z.enum([...MEMORY_TYPES, "untyped"]).optional().catch(undefined),
  age: z.enum(AGE_BUCKET_IDS).optional().catch(undefined),
  finding: z.string().regex(FINDING_FILTER).optional().catch(undefined),
  freshness: z.enum(FRESHNESS_STATES).optional().catch(undefined),
  reason: z.enum(STALE_SIGNAL_KINDS).optional().catch(undefined),
  sort: z.enum(MEMORY_SORTS).catch("newest").default("newest"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function MemoriesPage({ searchParams }: Props) {
  const caller = await requirePageCaller("/memories");
  const query = Query.parse(firstValues(await searchParams));
  try {
    const list = await listMemories({
      config: getConfig(),
      db: getDatabase(),
      caller,
      scope: query.scope,
      projectId: query.project,
      folder: query.folder,
      filters: { type: query.type, age: query.age, finding: query.finding, freshness: query.freshness, reason: query.reason, sort: query.sort },
      page: query.page,
    });
    const { source } = list;
    // Private rows already in a team project (same text or name), for this page's rows only.
    const teamCopies = source?.scope === "private"
      ? Object.fromEntries(await findTeamCopies({ config: getConfig(), db: getDatabase(), caller, memoryDir: await resolvePrivateMemoryDir(getConfig(), caller, source.folder), paths: list.memories.map((memory) => memory.path) }))
      : undefined;
    const sourceParams = source?.scope === "private" ? { scope: "private", folder: source.folder } : { project: source?.projectId };
    const link: QueryLink = (changes) => {
      const values = { ...sourceParams, type: query.type, age: query.age, finding: query.finding, freshness: query.freshness, reason: query.reason, sort: query.sort === "newest" ? undefined : query.sort, page: undefined, ...changes };
      const params = Object.entries(values).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]));
      return `/memories?${new URLSearchParams(params)}`;
    };
    const isFiltered = Boolean(query.type || query.age || query.finding || query.freshness || query.reason);
    return (
      <>
        <h1>Memories</h1>
        <SourcePicker sources={list.sources} current={source} />
        {!source ? (
          <div className="panel empty">
            {query.scope === "team"
              ? "No team memories yet: the store has no project you can see. Ask a lead to add you to a project; approved proposals appear here."
              : "No private memory yet: no Claude Code project under this home has a memory folder. It appears once Claude Code saves a memory."}
          </div>
        ) : (
          <>
            <p className="lead">
              {source.scope === "team" ? <>Team memory of <strong>{list.sources.projects.find((project) => project.id === source.projectId)?.name}</strong> in the store</> : <>Your private memory in <code>{source.folder}</code>, on this machine only</>}
              : {list.total} memories. Older than a day means agents get a freshness warning with it.{" "}
              <Link href={memoryHref(source, "MEMORY.md")} data-testid="index-link">MEMORY.md index and budget →</Link>
            </p>
            <FilterBar counts={list.counts} total={list.total} query={query} link={link} />
            {list.total === 0 ? (
              source.scope === "team" ? <NextSteps projectId={source.projectId} publicUrl={getConfig().publicUrl} /> : <div className="panel empty">This folder has no memories yet. Claude Code writes them here as you work.</div>
            ) : list.memories.length === 0 ? (
              <div className="panel empty" data-testid="no-match">
                No memories match these filters. {isFiltered && <Link href={link({ type: undefined, age: undefined, finding: undefined, freshness: undefined, reason: undefined })}>Clear the filters</Link>}
              </div>
            ) : (
              <MemoryTable source={source} memories={list.memories} teamCopies={teamCopies} />
            )}
            {source.scope === "team" && list.memories.some((memory) => memory.freshness?.state === "stale") && (
              <BulkRetire
                projectId={source.projectId}
                rows={list.memories.filter((memory) => memory.freshness?.state === "stale").map((memory) => ({ path: memory.path, name: memory.name ?? memory.path, reasons: (memory.freshness?.reasons ?? []).join(", ") }))}
              />
            )}
            {list.pageCount > 1 && (
              <nav className="pager" aria-label="Pages">
                {list.page > 1 ? <Link href={link({ page: list.page - 1 })}>← {query.sort === "oldest" ? "Older" : "Newer"}</Link> : <span />}
                <span className="muted">Page {list.page} of {list.pageCount} ({list.matching} memories)</span>
                {list.page < list.pageCount ? <Link href={link({ page: list.page + 1 })}>{query.sort === "oldest" ? "Newer" : "Older"} →</Link> : <span />}
              </nav>
            )}
            {list.otherFindings.some((finding) => finding.file !== "MEMORY.md" && !finding.file.endsWith("/MEMORY.md")) && (
              <p className="muted">
                Some files could not be read as memories:{" "}
                {list.otherFindings.filter((finding) => !finding.file.endsWith("MEMORY.md")).map((finding) => `${finding.file} (${finding.rule})`).join(", ")}.
              </p>
            )}
          </>
        )}
        <PrivateFolders sources={list.sources} />
      </>
    );
  } catch (error) {
    // A project or private folder the caller cannot see, or that does not exist: 404 (not-found.tsx).
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    return <ErrorPanel error={toShownError(error, "memories")} />;
  }
}
