import Link from "next/link";
import { memoryAge } from "@/lib/memdir/age";
import { listStoreProjects, refreshStore, type StoreProject } from "@/lib/store/read-store";
import { ErrorPanel } from "./_components/error-panel";
import { listVisibleProjectIds } from "@/lib/auth/permissions";
import { getConfig, getDatabase } from "./_server/context";
import { toShownError } from "./_server/http";
import { requirePageCaller } from "./_server/page-caller";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const caller = await requirePageCaller("/");
  let projects: StoreProject[];
  try {
    const config = getConfig();
    await refreshStore(config);
    const visible = new Set(await listVisibleProjectIds(getDatabase(), caller));
    projects = (await listStoreProjects(config)).filter((project) => visible.has(project.id));
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
          No projects to show: either the team store has none yet, or you have no role in one. A
          project&apos;s lead (or an admin) can add you.
        </div>
      ) : (
        <section className="cards" aria-label="Projects">
          {projects.map((project) => (
            <Link key={project.id} href={`/memories?project=${encodeURIComponent(project.id)}`} className="card" data-testid="project-card">
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
