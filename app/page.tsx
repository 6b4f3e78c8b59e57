import Link from "next/link";
import { memoryAge } from "@/lib/memdir/age";
import { listProjects } from "@/lib/projects/list-projects";
import type { ProjectSummary } from "@/lib/projects/project-summary";
import { ErrorPanel } from "./_components/error-panel";
import { getConfig, getDatabase } from "./_server/context";
import { toShownError } from "./_server/http";
import { requirePageCaller } from "./_server/page-caller";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const caller = await requirePageCaller("/");
  let projects: ProjectSummary[];
  try {
    projects = await listProjects({ config: getConfig(), db: getDatabase(), caller });
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
        <div className="panel empty">
          {caller.isAdmin ? (
            <>No projects yet. <Link href="/projects">Create the first one on Projects</Link>: name it, give its repository URLs and its lead.</>
          ) : (
            <>No projects to show: you have no role in one yet. A project&apos;s lead (or an admin) can add you; see <Link href="/projects">Projects</Link>.</>
          )}
        </div>
      ) : (
        <section className="cards" aria-label="Projects">
          {projects.map((project) => (
            <Link
              key={project.id}
              // An empty project has nothing to browse yet: its card leads to the next steps instead.
              href={project.memoryCount === 0 ? `/projects/${encodeURIComponent(project.id)}` : `/memories?project=${encodeURIComponent(project.id)}`}
              className="card"
              data-testid="project-card"
            >
              <h3>{project.name}</h3>
              <div className="muted">{project.remote ?? project.id}</div>
              <div className="count" data-testid="memory-count">{project.memoryCount}</div>
              <div className="muted">team memories</div>
              <div className="row" style={{ marginTop: "0.5rem" }}>
                {(["feedback", "project", "reference", "user"] as const)
                  .filter((type) => project.countsByType[type] > 0)
                  .map((type) => (
                    <span key={type} className={`badge type-${type}`}>
                      {project.countsByType[type]} {type}
                    </span>
                  ))}
              </div>
              {project.memoryCount === 0 && (
                <p className="muted" style={{ marginBottom: 0 }} data-testid="empty-project-hint">
                  No memories yet: add members, create a token on Settings, then propose the first ones →
                </p>
              )}
              {project.lastChangedAt && (
                <p className="muted" style={{ marginBottom: 0 }}>Last change {memoryAge(project.lastChangedAt)}</p>
              )}
            </Link>
          ))}
        </section>
      )}
    </>
  );
}
