import { assertProjectPermission, hasProjectPermission } from "../auth/permissions";
import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { loadFreshnessSummary } from "./load-freshness-summary";
import type { ProjectOverview } from "./overview-types";
import { summarizeMemories } from "./summarize-memories";
import { summarizeRecall } from "./summarize-recall";
import { summarizeReview } from "./summarize-review";

export type LoadProjectOverviewOptions = { config: Config; db: Db; caller: Caller; projectId: string; now?: Date };

/**
 * Everything the Overview shows about one project, computed by the database from the read model,
 * the proposals and the recall log: no file or git history is read per request. Anyone who may
 * read the project sees its memories, freshness and review queue; the recall log (who was given
 * what) for whoever may oversee it (its leads and admins), by the rule of
 * GET /api/projects/:id/recall-events.
 */
export async function loadProjectOverview({ config, db, caller, projectId, now = new Date() }: LoadProjectOverviewOptions): Promise<ProjectOverview> {
  const role = await assertProjectPermission(db, caller, projectId, "read");
  const project = await db.project.findUnique({ where: { id: projectId }, select: { name: true } });
  if (!project) throw new AppError("NOT_FOUND", `There is no project "${projectId}" that you can see.`);
  await ensureReadModel(config, db);
  // The permission, not the role: an admin holding a member role in the project oversees it too.
  const mayReadRecallLog = await hasProjectPermission(db, caller, projectId, "oversee");
  const [memories, review, recall, freshness] = await Promise.all([
    summarizeMemories(db, projectId, now),
    summarizeReview(db, projectId, now),
    mayReadRecallLog ? summarizeRecall(db, config.databaseKind, projectId, now) : null,
    loadFreshnessSummary(config, db, projectId),
  ]);
  return {
    projectId,
    projectName: project.name,
    role,
    generatedAt: now.toISOString(),
    memories,
    freshness,
    review,
    recall,
    recallHiddenReason: mayReadRecallLog ? null : "Recall statistics come from the recall log, which only the project's leads and admins may read.",
  };
}
