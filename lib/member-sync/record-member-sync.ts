import type { Db } from "../db/client";

export type RecordMemberSyncOptions = { projectId: string; userId: string; clientVersion: string; heldCommit: string | null | undefined };

/**
 * One upsert per sync call: when the member last synced, with which client, and (on the last
 * page of an answer) the store commit their folder now holds. Cheap enough for every call.
 */
export async function recordMemberSync(db: Db, { projectId, userId, clientVersion, heldCommit }: RecordMemberSyncOptions): Promise<void> {
  const now = new Date();
  const held = heldCommit === undefined ? {} : { heldCommit };
  await db.memberSync.upsert({
    where: { projectId_userId: { projectId, userId } },
    create: { projectId, userId, lastSyncAt: now, clientVersion, heldCommit: heldCommit ?? null },
    update: { lastSyncAt: now, clientVersion, ...held },
  });
}
