import type { ProjectEntry } from "../store/commit-project-entry";

/** Who changes a project: the commit's author and the audit event's actor. */
export type ProjectActor = { userId: string; name: string; email: string };

/** The project's line in teammem.json; `remote` stays the first URL for readers that predate `repoUrls`. */
export function toProjectEntry(project: { id: string; name: string; repoUrls: string[]; isArchived: boolean }): ProjectEntry {
  return {
    id: project.id,
    name: project.name,
    ...(project.repoUrls.length > 0 ? { remote: project.repoUrls[0], repoUrls: project.repoUrls } : {}),
    ...(project.isArchived ? { archived: true } : {}),
  };
}

/** An AuditEvent row for a project change: who (email), what, and the facts that changed. */
export function projectAuditEvent(actor: ProjectActor, action: string, projectId: string, detail: Record<string, unknown>) {
  return { actor: actor.email, action, projectId, detail: JSON.stringify({ actorId: actor.userId, ...detail }) };
}
