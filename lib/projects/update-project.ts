import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { commitProjectEntry } from "../store/commit-project-entry";
import { findCodeRepoInTeammemData } from "./find-code-repo-in-teammem-data";
import { getProject } from "./get-project";
import { projectAuditEvent, toProjectEntry, type ProjectActor } from "./project-entry";
import { readRepoUrls, type ProjectSummary } from "./project-summary";
import { readStaleAfterDays } from "../stale/stale-thresholds";
import { validateCodeRepo, validateProjectName, validateRepoUrls, validateStaleAfterDays } from "./validate-project-fields";

export type UpdateProjectInput = {
  name?: string;
  repoUrls?: string[];
  allowSelfApproval?: boolean;
  archived?: boolean;
  codeRepo?: string | null;
  /** Replaces the project's age limits: types left out (or null) use the defaults. */
  staleAfterDays?: Record<string, number | null> | null;
};

// Review and staleness settings kept in the database only: they are not part of teammem.json.
const DATABASE_ONLY_ACTIONS = new Set(["project.self_approval_changed", "project.code_repo_changed", "project.stale_thresholds_changed"]);

export type UpdateProjectOptions = { actor: ProjectActor; projectId: string; input: UpdateProjectInput };

type Change = { action: string; subject: string; detail: Record<string, unknown> };

/**
 * Renames a project, sets its repository URLs, archives or unarchives it, or turns self-approval
 * on or off. What teammem.json records (name, URLs, archived) is committed to the store first, in
 * one commit; then the database follows, with one audit event per change. Self-approval is a
 * review rule, and the code repository a staleness setting, kept in the database only. Nothing that is already so is committed again.
 */
export async function updateProject(config: Config, db: Db, { actor, projectId, input }: UpdateProjectOptions): Promise<ProjectSummary> {
  const row = await db.project.findUnique({ where: { id: projectId } });
  if (!row) throw new AppError("NOT_FOUND", `There is no project "${projectId}".`);
  const before = { name: row.name, repoUrls: readRepoUrls(row), isArchived: row.archivedAt !== null };
  const after = {
    name: input.name === undefined ? before.name : validateProjectName(input.name),
    repoUrls: input.repoUrls === undefined ? before.repoUrls : validateRepoUrls(input.repoUrls),
    isArchived: input.archived ?? before.isArchived,
  };
  const allowSelfApproval = input.allowSelfApproval ?? row.allowSelfApproval;
  const codeRepo = input.codeRepo === undefined ? row.codeRepo : validateCodeRepo(input.codeRepo);
  const ownData = input.codeRepo === undefined || codeRepo === null ? null : findCodeRepoInTeammemData(config, codeRepo);
  if (ownData) throw new AppError("INVALID_INPUT", `codeRepo: ${ownData}.`, { details: { field: "codeRepo" } });
  const changes = listChanges(projectId, before, after, { from: row.allowSelfApproval, to: allowSelfApproval });
  if (codeRepo !== row.codeRepo) changes.push({ action: "project.code_repo_changed", subject: `Set the code repository of project ${projectId}`, detail: { from: row.codeRepo, to: codeRepo } });
  const staleAfterDays = input.staleAfterDays === undefined ? row.staleAfterDays : validateStaleAfterDays(input.staleAfterDays);
  if (staleAfterDays !== row.staleAfterDays) {
    changes.push({ action: "project.stale_thresholds_changed", subject: `Set the staleness age limits of project ${projectId}`, detail: { from: readStaleAfterDays(row.staleAfterDays), to: readStaleAfterDays(staleAfterDays) } });
  }
  if (changes.length === 0) return (await getProject(config, db, projectId, { withMemories: false })).project;

  let commit: string | null = null;
  if (changes.some((change) => !DATABASE_ONLY_ACTIONS.has(change.action))) {
    const outcome = await commitProjectEntry(config, db, {
      projectId,
      edit: () => toProjectEntry({ id: projectId, ...after }),
      actor: { name: actor.name, email: actor.email },
      subject: changes.map((change) => change.subject).join("; "),
      trailers: { "Project-Id": projectId, "Changed-by": `${actor.name} <${actor.email}>` },
    });
    commit = outcome.commit;
  }
  await db.$transaction([
    db.project.update({
      where: { id: projectId },
      data: {
        name: after.name,
        remoteUrl: after.repoUrls[0] ?? null,
        repoUrls: JSON.stringify(after.repoUrls),
        archivedAt: after.isArchived ? (row.archivedAt ?? new Date()) : null,
        allowSelfApproval,
        codeRepo,
        staleAfterDays,
      },
    }),
    // A new code repository makes the last staleness check moot: the next read checks again.
    // So do new age limits: every memory's state is assessed again.
    ...(codeRepo !== row.codeRepo || staleAfterDays !== row.staleAfterDays ? [db.staleRun.deleteMany({ where: { projectId } })] : []),
    ...changes.map((change) => db.auditEvent.create({ data: projectAuditEvent(actor, change.action, projectId, { ...change.detail, commit }) })),
  ]);
  return (await getProject(config, db, projectId, { withMemories: false })).project;
}

type ProjectState = { name: string; repoUrls: string[]; isArchived: boolean };

function listChanges(projectId: string, before: ProjectState, after: ProjectState, selfApproval: { from: boolean; to: boolean }): Change[] {
  const changes: Change[] = [];
  if (after.name !== before.name) {
    changes.push({ action: "project.renamed", subject: `Rename project ${projectId} to ${after.name}`, detail: { from: before.name, to: after.name } });
  }
  if (after.repoUrls.join("\n") !== before.repoUrls.join("\n")) {
    const list = after.repoUrls.length > 0 ? after.repoUrls.join(", ") : "none";
    changes.push({ action: "project.repositories_changed", subject: `Set repositories of project ${projectId}: ${list}`, detail: { from: before.repoUrls, to: after.repoUrls } });
  }
  if (after.isArchived !== before.isArchived) {
    const verb = after.isArchived ? "Archive" : "Unarchive";
    changes.push({ action: after.isArchived ? "project.archived" : "project.unarchived", subject: `${verb} project ${after.name} (${projectId})`, detail: {} });
  }
  if (selfApproval.to !== selfApproval.from) {
    const subject = `${selfApproval.to ? "Allow" : "Disallow"} self-approval in project ${projectId}`;
    changes.push({ action: "project.self_approval_changed", subject, detail: selfApproval });
  }
  return changes;
}
