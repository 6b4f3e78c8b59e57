import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { updateMemoryText } from "../memdir/update-memory-text";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { commitChange } from "../store/commit-change";
import { readBlobs } from "../store/git";
import { refreshOnce } from "./load-project-freshness";

export type StillTrueOptions = {
  projectId: string;
  path: string;
  actor: { userId: string; name: string; email: string };
  now?: Date;
};

export type StillTrueOutcome = { commit: string; verifiedAt: string };

/** The frontmatter field a "Still true" sets (F1: other fields are kept byte for byte). */
export const VERIFIED_FIELD = "verified";

/**
 * "Still true": a lead confirms a memory against today's code. Recorded three ways: a store
 * commit that sets `verified: <date>` in the file's frontmatter, authored by the lead with a
 * `Verified-by` trailer (its author time is the file's new age, in the read model and on every
 * member machine after their next sync, which sets a file's mtime from the store's commit time),
 * a MemoryVerification row and an audit event. Verifying twice on one day commits nothing new but
 * is still recorded. The file's content is otherwise untouched, so no review is needed.
 */
export async function markStillTrue(config: Config, db: Db, options: StillTrueOptions): Promise<StillTrueOutcome> {
  const now = options.now ?? new Date();
  await ensureReadModel(config, db);
  const row = await db.storeMemory.findUnique({ where: { projectId_path: { projectId: options.projectId, path: options.path } }, select: { blob: true } });
  if (!row) throw new AppError("NOT_FOUND", `There is no team memory "${options.path.slice(0, 200)}" in project "${options.projectId}".`);
  const text = (await readBlobs(config.storeCloneDir, [row.blob])).get(row.blob);
  if (text === undefined) throw new AppError("STORE_UNAVAILABLE", "The memory's text could not be read from the store; try again in a moment.");
  const verifiedAt = now.toISOString().slice(0, 10);
  const identity = { name: options.actor.name, email: options.actor.email };
  const outcome = await commitChange(config, db, {
    change: { projectId: options.projectId, path: options.path, content: updateMemoryText(text, { fields: { [VERIFIED_FIELD]: verifiedAt } }), baseBlob: row.blob },
    author: identity,
    committer: identity,
    subject: `Still true: ${options.path}`,
    trailers: { "Project-Id": options.projectId, "Verified-by": `${options.actor.name} <${options.actor.email}>`, Source: "still-true" },
    onIntent: async () => undefined,
    maxAttempts: 3,
  });
  if (outcome.status === "conflicted") throw new AppError("CONFLICT", "The memory changed while it was being verified; reload the page and check it again.");
  if (outcome.status === "blocked_secret") throw new AppError("SECRET_FOUND", "The memory holds a credential; redact it through a proposal before verifying it.");
  if (outcome.status === "case_twin") throw new AppError("CONFLICT", `The memory was retired and ${outcome.twin} took its name in another letter case; reload the page.`);
  await db.$transaction([
    db.memoryVerification.create({ data: { projectId: options.projectId, path: options.path, userId: options.actor.userId, userName: options.actor.name, commit: outcome.commit, at: now } }),
    db.auditEvent.create({ data: { actor: options.actor.userId, action: "memory.verified", projectId: options.projectId, detail: JSON.stringify({ path: options.path, commit: outcome.commit }) } }),
  ]);
  await ensureReadModel(config, db);
  await refreshOnce(config, db, options.projectId).catch(() => undefined); // the next read checks again anyway
  return { commit: outcome.commit, verifiedAt };
}
