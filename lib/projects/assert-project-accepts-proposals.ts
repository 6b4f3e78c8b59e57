import type { Db } from "../db/client";
import { AppError } from "../errors";

/**
 * Throws unless new proposals may be made in the project: NOT_FOUND for an unknown project,
 * CONFLICT for an archived one (its history stays; unarchiving opens it again). Called where a
 * proposal is submitted.
 */
export async function assertProjectAcceptsProposals(db: Db, projectId: string): Promise<void> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { name: true, archivedAt: true } });
  if (!project) throw new AppError("NOT_FOUND", `There is no project "${projectId}".`);
  if (project.archivedAt) {
    throw new AppError("CONFLICT", `${project.name} (${projectId}) is archived; unarchive it on its settings page to propose again.`);
  }
}
