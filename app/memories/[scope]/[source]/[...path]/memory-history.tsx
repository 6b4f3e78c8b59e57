import type { FileCommit } from "@/lib/store/git";

/** The store's git log of one memory; private memory has none, and says so. */
export function MemoryHistory({ history }: { history: FileCommit[] | null }) {
  if (history === null) return <p className="muted">Private memory lives only on this machine and is not versioned; its modification time is all there is.</p>;
  if (history.length === 0) return <p className="muted">No commit in the team store touches this file yet.</p>;
  return (
    <table id="history" data-testid="history-table">
      <thead><tr><th>Commit</th><th>Author</th><th>Date</th><th>Subject</th></tr></thead>
      <tbody>
        {history.map((commit) => (
          <tr key={commit.commit}>
            <td><code title={commit.commit}>{commit.commit.slice(0, 10)}</code></td>
            <td title={commit.authorEmail}>{commit.authorName}</td>
            <td className="nowrap">{commit.date.toISOString().slice(0, 10)}</td>
            <td>{commit.subject}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
