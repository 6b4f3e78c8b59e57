import type { Metadata } from "next";
import Link from "next/link";
import { listProjects } from "@/lib/projects/list-projects";
import type { ProjectSummary } from "@/lib/projects/project-summary";
import { ErrorPanel } from "../_components/error-panel";
import { getConfig, getDatabase } from "../_server/context";
import { toShownError } from "../_server/http";
import { requirePageCaller } from "../_server/page-caller";
import { ArchiveButton } from "./[id]/archive-button";
import { NewProjectForm } from "./new-project-form";

export const metadata: Metadata = { title: "Projects" };

export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const caller = await requirePageCaller("/projects");
  let projects: ProjectSummary[];
  try {
    projects = await listProjects({ config: getConfig(), db: getDatabase(), caller, includeArchived: caller.isAdmin });
  } catch (error) {
    return <ErrorPanel error={toShownError(error, "projects")} />;
  }
  const active = projects.filter((project) => !project.archivedAt);
  const archived = projects.filter((project) => project.archivedAt);

  return (
    <>
      <h1>Projects</h1>
      <p className="lead">A project is a folder of team memory in the store, tied to the repositories whose checkouts use it.</p>
      {active.length === 0 ? (
        <div className="panel empty">
          {caller.isAdmin ? "No projects yet: create the first one below." : "No projects you can see. An admin creates projects; a project's lead or an admin adds you."}
        </div>
      ) : (
        <ProjectTable projects={active} />
      )}
      {caller.isAdmin && (
        <>
          <h2>New project</h2>
          <NewProjectForm />
          <h2>Archived</h2>
          {archived.length === 0 ? (
            <p className="muted">No archived projects.</p>
          ) : (
            <table data-testid="archived-projects">
              <thead><tr><th>Project</th><th>Id</th><th>Memories</th><th>Archived</th><th /></tr></thead>
              <tbody>
                {archived.map((project) => (
                  <tr key={project.id}>
                    <td><Link href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</Link></td>
                    <td><code>{project.id}</code></td>
                    <td>{project.memoryCount}</td>
                    <td>{project.archivedAt!.toISOString().slice(0, 10)}</td>
                    <td><ArchiveButton projectId={project.id} projectName={project.name} isArchived /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}

function ProjectTable({ projects }: { projects: ProjectSummary[] }) {
  return (
    <table data-testid="project-table">
      <thead><tr><th>Project</th><th>Id</th><th>Repositories</th><th>Memories</th><th>Members</th></tr></thead>
      <tbody>
        {projects.map((project) => (
          <tr key={project.id}>
            <td><Link href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</Link></td>
            <td><code>{project.id}</code></td>
            <td>{project.repoUrls.join(", ") || <span className="muted">none</span>}</td>
            <td>{project.memoryCount === 0 ? <span className="muted">none yet</span> : <Link href={`/memories?project=${encodeURIComponent(project.id)}`}>{project.memoryCount}</Link>}</td>
            <td>{project.memberCount}{project.leadCount === 0 && <span className="muted"> (no lead)</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
