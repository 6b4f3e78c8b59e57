import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { memoryAge } from "@/lib/memdir/age";
import { listAttentionItems } from "@/lib/overview/list-attention-items";
import { loadProjectOverview } from "@/lib/overview/load-project-overview";
import type { ProjectOverview } from "@/lib/overview/overview-types";
import { summarizeOpenProposals, type OpenProposalCount } from "@/lib/overview/summarize-open-proposals";
import { listProjects } from "@/lib/projects/list-projects";
import type { ProjectSummary } from "@/lib/projects/project-summary";
import { ErrorPanel } from "./_components/error-panel";
import { firstValues } from "./_components/first-values";
import { OverviewAttention } from "./_components/overview-attention";
import { OverviewMemories, OverviewStale } from "./_components/overview-memories";
import { OverviewRecall } from "./_components/overview-recall";
import { OverviewReview } from "./_components/overview-review";
import styles from "./_components/overview.module.css";
import { getConfig, getDatabase } from "./_server/context";
import { toShownError } from "./_server/http";
import { requirePageCaller } from "./_server/page-caller";

export const metadata: Metadata = { title: { absolute: "Overview · teammem" } };

export const dynamic = "force-dynamic";

const Query = z.object({ project: z.string().max(100).optional().catch(undefined) });
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function OverviewPage({ searchParams }: Props) {
  const caller = await requirePageCaller("/");
  const query = Query.parse(firstValues(await searchParams));
  const config = getConfig();
  const db = getDatabase();
  let projects: ProjectSummary[];
  let queues: Map<string, OpenProposalCount>;
  let overview: ProjectOverview | null = null;
  try {
    projects = await listProjects({ config, db, caller });
    queues = await summarizeOpenProposals(db, projects.map((project) => project.id));
    const selected = projects.find((project) => project.id === query.project) ?? projects[0];
    if (selected) overview = await loadProjectOverview({ config, db, caller, projectId: selected.id });
  } catch (error) {
    return <ErrorPanel error={toShownError(error, "overview")} />;
  }
  const total = projects.reduce((sum, project) => sum + project.memoryCount, 0);

  return (
    <>
      <h1>Overview</h1>
      <p className="lead">
        {projects.length} project{projects.length === 1 ? "" : "s"} in the team store, {total} team memor{total === 1 ? "y" : "ies"}.
      </p>
      {projects.length === 0 ? (
        <div className="panel empty" data-testid="overview-no-projects">
          {caller.isAdmin ? (
            <>No projects yet. <Link href="/projects">Create the first one on Projects</Link>: name it, give its repository URLs and its lead.</>
          ) : (
            <>No projects to show: you have no role in one yet. A project&apos;s lead (or an admin) can add you; see <Link href="/projects">Projects</Link>.</>
          )}
        </div>
      ) : (
        <>
          {overview && <OverviewAttention projectName={overview.projectName} items={listAttentionItems(overview)} />}
          <h2>Projects</h2>
          <section className="cards" aria-label="Projects">
            {projects.map((project) => <ProjectCard key={project.id} project={project} queue={queues.get(project.id) ?? null} isSelected={project.id === overview?.projectId} />)}
          </section>
          {overview && <ProjectAtAGlance overview={overview} />}
        </>
      )}
    </>
  );
}

function ProjectCard({ project, queue, isSelected }: { project: ProjectSummary; queue: OpenProposalCount | null; isSelected: boolean }) {
  return (
    <div className="card" data-testid="project-card" aria-current={isSelected ? "true" : undefined} style={isSelected ? { borderColor: "var(--accent)" } : undefined}>
      {/* An empty project has nothing to browse yet: its card leads to the next steps instead. */}
      <Link href={project.memoryCount === 0 ? `/projects/${encodeURIComponent(project.id)}` : `/memories?project=${encodeURIComponent(project.id)}`} style={{ textDecoration: "none", display: "block" }}>
        <h3>{project.name}</h3>
        <div className="muted">{project.remote ?? project.id}</div>
        <div className="count" data-testid="memory-count">{project.memoryCount}</div>
        <div className="muted">team memories</div>
        <div className="row" style={{ marginTop: "0.5rem" }}>
          {(["feedback", "project", "reference", "user"] as const)
            .filter((type) => project.countsByType[type] > 0)
            .map((type) => <span key={type} className={`badge type-${type}`}>{project.countsByType[type]} {type}</span>)}
        </div>
        {project.memoryCount === 0 && (
          <p className="muted" style={{ marginBottom: 0 }} data-testid="empty-project-hint">
            No memories yet: add members, create a token on Settings, then propose the first ones →
          </p>
        )}
        <p style={{ marginBottom: 0 }} data-testid="open-proposals">
          {queue ? <strong>{queue.openCount} open proposal{queue.openCount === 1 ? "" : "s"}</strong> : <span className="muted">No open proposals</span>}
          {project.lastChangedAt && <span className="muted"> · last change {memoryAge(project.lastChangedAt)}</span>}
        </p>
      </Link>
      {!isSelected && <p style={{ margin: "0.5rem 0 0" }}><Link href={`/?project=${encodeURIComponent(project.id)}`}>Show at a glance</Link></p>}
    </div>
  );
}

function ProjectAtAGlance({ overview }: { overview: ProjectOverview }) {
  return (
    <section aria-labelledby="glance-heading" data-testid="overview-project">
      <h2 id="glance-heading">{overview.projectName} at a glance</h2>
      <div className={styles.grid}>
        <OverviewMemories projectId={overview.projectId} memories={overview.memories} freshness={overview.freshness} />
        <OverviewStale projectId={overview.projectId} freshness={overview.freshness} />
        <OverviewReview projectId={overview.projectId} review={overview.review} />
        <OverviewRecall projectId={overview.projectId} recall={overview.recall} hiddenReason={overview.recallHiddenReason} memoryCount={overview.memories.total} />
      </div>
    </section>
  );
}
