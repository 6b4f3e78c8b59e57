import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { log } from "../log";
import { commitProjectEntry } from "../store/commit-project-entry";
import { getProject } from "./get-project";
import { projectAuditEvent, toProjectEntry, type ProjectActor } from "./project-entry";
import type { ProjectSummary } from "./project-summary";
import { resolveProjectId, validateProjectName, validateRepoUrls } from "./validate-project-fields";

export type CreateProjectInput = {
  /** Derived from the first repository URL (else the name) when absent. */
  id?: string | null;
  name: string;
  repoUrls?: string[];
  /** An existing account that becomes the project's first lead. */
  leadEmail?: string | null;
  allowSelfApproval?: boolean;
};

export type CreateProjectOptions = { actor: ProjectActor; input: CreateProjectInput };

/**
 * Creates a project: its row (and first lead) in the database, then its entry in teammem.json and
 * its folder in the store as one commit. The row comes first because its primary key is what
 * refuses a second project with the same id, also between app instances; when the commit fails
 * the row is removed again. An id that teammem.json already lists (a store shared with an earlier
 * installation) is adopted: the project and its memories become visible here.
 */
export async function createProject(config: Config, db: Db, { actor, input }: CreateProjectOptions): Promise<ProjectSummary> {
  const name = validateProjectName(input.name);
  const repoUrls = validateRepoUrls(input.repoUrls ?? []);
  const projectId = resolveProjectId({ id: input.id, repoUrls, name });
  const lead = input.leadEmail ? await findLeadOrThrow(db, input.leadEmail) : null;
  const allowSelfApproval = input.allowSelfApproval === true;

  await insertProjectOrThrow(db, {
    id: projectId,
    name,
    remoteUrl: repoUrls[0] ?? null,
    repoUrls: JSON.stringify(repoUrls),
    allowSelfApproval,
    ...(lead ? { members: { create: { userId: lead.id, role: "lead" } } } : {}),
  });
  let outcome;
  try {
    outcome = await commitProjectEntry(config, db, {
      projectId,
      edit: (current) => toProjectEntry({ id: projectId, name, repoUrls: repoUrls.length > 0 ? repoUrls : (current?.repoUrls ?? []), isArchived: false }),
      actor: { name: actor.name, email: actor.email },
      subject: `Create project ${name} (${projectId})`,
      trailers: { "Project-Id": projectId, "Created-by": `${actor.name} <${actor.email}>` },
    });
  } catch (error) {
    await db.project.delete({ where: { id: projectId } }).catch((cause: unknown) => {
      log("error", "project.create_rollback_failed", { projectId, error: (cause as Error)?.name ?? "unknown" });
    });
    throw error;
  }
  const adoptedUrls = repoUrls.length === 0 && outcome.previous?.repoUrls ? outcome.previous.repoUrls : null;
  await db.$transaction([
    ...(adoptedUrls ? [db.project.update({ where: { id: projectId }, data: { remoteUrl: adoptedUrls[0] ?? null, repoUrls: JSON.stringify(adoptedUrls) } })] : []),
    db.auditEvent.create({
      data: projectAuditEvent(actor, "project.created", projectId, {
        name,
        repoUrls: adoptedUrls ?? repoUrls,
        lead: lead?.email ?? null,
        allowSelfApproval,
        commit: outcome.commit,
        adoptedFromStore: outcome.previous !== null,
      }),
    }),
  ]);
  return (await getProject(config, db, projectId, { withMemories: false })).project;
}

async function findLeadOrThrow(db: Db, email: string): Promise<{ id: string; email: string }> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true } });
  if (user) return user;
  throw new AppError("INVALID_INPUT", `leadEmail: there is no account for ${email.trim()}; create it on the Settings page first.`, { details: { field: "leadEmail" } });
}

type NewProjectRow = Parameters<Db["project"]["create"]>[0]["data"];

async function insertProjectOrThrow(db: Db, data: NewProjectRow & { id: string }): Promise<void> {
  const duplicate = () => new AppError("CONFLICT", `A project with the id "${data.id}" already exists; choose another id.`, { details: { field: "id" } });
  if (await db.project.findUnique({ where: { id: data.id }, select: { id: true } })) throw duplicate();
  try {
    await db.project.create({ data });
  } catch (cause) {
    // Two instances creating the same id at once: the primary key lets only one through.
    if (typeof cause === "object" && cause !== null && "code" in cause && (cause as { code: unknown }).code === "P2002") throw duplicate();
    throw cause;
  }
}
