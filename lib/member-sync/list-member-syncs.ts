import type { Db } from "../db/client";
import { OPEN_PROPOSAL_STATES } from "../review/proposal-types";
import { readRecordedCommit } from "../read-model/sync-read-model";

export type MemberSyncRow = {
  userId: string;
  name: string;
  email: string;
  role: string;
  /** Null: this member never ran `teammem sync` for the project. */
  lastSyncAt: Date | null;
  clientVersion: string | null;
  heldCommit: string | null;
  /** False when the member's folder holds an older store commit than the read model's head. */
  isCurrent: boolean;
  pendingProposals: number;
};

/**
 * Each member of a project and where their sync stands, for the lead (who is behind): three
 * queries whatever the number of memories. "Current" compares with the store commit the read
 * model describes.
 */
export async function listMemberSyncs(db: Db, projectId: string): Promise<{ head: string | null; members: MemberSyncRow[] }> {
  const [members, syncs, pending, head] = await Promise.all([
    db.projectMember.findMany({ where: { projectId }, include: { user: { select: { name: true, email: true } } }, orderBy: { createdAt: "asc" } }),
    db.memberSync.findMany({ where: { projectId } }),
    db.proposal.groupBy({ by: ["proposerId"], where: { projectId, state: { in: [...OPEN_PROPOSAL_STATES] } }, _count: { _all: true } }),
    readRecordedCommit(db),
  ]);
  const syncByUser = new Map(syncs.map((sync) => [sync.userId, sync]));
  const pendingByUser = new Map(pending.map((row) => [row.proposerId, row._count._all]));
  return {
    head,
    members: members.map((member) => {
      const sync = syncByUser.get(member.userId);
      return {
        userId: member.userId,
        name: member.user.name,
        email: member.user.email,
        role: member.role,
        lastSyncAt: sync?.lastSyncAt ?? null,
        clientVersion: sync?.clientVersion ?? null,
        heldCommit: sync?.heldCommit ?? null,
        isCurrent: Boolean(sync?.heldCommit && sync.heldCommit === head),
        pendingProposals: pendingByUser.get(member.userId) ?? 0,
      };
    }),
  };
}
