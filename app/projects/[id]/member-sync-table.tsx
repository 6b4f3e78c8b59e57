import type { MemberSyncRow } from "@/lib/member-sync/list-member-syncs";
import { memoryAge } from "@/lib/memdir/age";

/** For leads: where each member's `teammem sync` stands (who is behind the store's head). */
export function MemberSyncTable({ members }: { members: MemberSyncRow[] }) {
  return (
    <table data-testid="member-sync">
      <thead>
        <tr>
          <th>Member</th>
          <th>Last sync</th>
          <th>Client</th>
          <th>Store commit held</th>
          <th>Open proposals</th>
        </tr>
      </thead>
      <tbody>
        {members.map((member) => (
          <tr key={member.userId}>
            <td>{member.name}</td>
            <td>{member.lastSyncAt ? memoryAge(member.lastSyncAt) : <span className="muted">never synced</span>}</td>
            <td>{member.clientVersion ?? "—"}</td>
            <td>
              {member.heldCommit ? <code>{member.heldCommit.slice(0, 8)}</code> : "—"}{" "}
              {member.lastSyncAt && <span className="badge">{member.isCurrent ? "up to date" : "behind"}</span>}
            </td>
            <td>{member.pendingProposals}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
