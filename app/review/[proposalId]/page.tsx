import Link from "next/link";
import { notFound } from "next/navigation";
import { assertCanReadProposal } from "@/lib/auth/assert-proposal-in-project";
import { diffMemory, type MemoryDiff } from "@/lib/diff/diff-memory";
import { isAppError } from "@/lib/errors";
import { TEAM_CONVENTION_BLOCKER } from "@/lib/review/compute-checks";
import { getProposal } from "@/lib/review/get-proposal";
import { listProposals } from "@/lib/review/list-proposals";
import { OPEN_PROPOSAL_STATES, type ProposalDetail } from "@/lib/review/proposal-types";
import { splitRedactionMarkers } from "@/lib/secrets/mask-secret-ranges";
import { FindingsList } from "../../_components/findings-list";
import { MarkdownBody } from "../../_components/markdown";
import { TypeBadge } from "../../_components/type-badge";
import { getConfig, getDatabase } from "../../_server/context";
import { requirePageCaller } from "../../_server/page-caller";
import { ProposalActions } from "./proposal-actions";
import { SupersedeButton } from "./supersede-button";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ proposalId: string }> };

export default async function ProposalPage({ params }: Props) {
  const { proposalId } = await params;
  const caller = await requirePageCaller(`/review/${encodeURIComponent(proposalId)}`);
  const db = getDatabase();
  let access;
  try {
    access = await assertCanReadProposal(db, caller, proposalId);
  } catch (error) {
    // A 404 status, not a 200 page saying so: not-found.tsx beside this page says what to do.
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const proposal = await getProposal(getConfig(), db, proposalId);
  const queue = (await listProposals(db, { projectIds: [access.projectId], states: [...OPEN_PROPOSAL_STATES] })).map((item) => item.id);
  const position = queue.indexOf(proposalId);
  // getProposal masked every secret as its kind and preview: the value never leaves the server.
  const shownContent = proposal.content;
  const diff = diffMemory(proposal.baseContent, shownContent);

  return (
    <>
      <p className="muted"><Link href="/review">← Review queue</Link>{position >= 0 ? ` · ${position + 1} of ${queue.length} open` : ""}</p>
      <h1>{proposal.name ?? proposal.path}</h1>
      <p className="lead">
        <TypeBadge type={proposal.type} /> <code>{proposal.projectId}/{proposal.path}</code> · {proposal.isRetirement ? "retire this memory" : proposal.baseBlob ? "edit of a team memory" : "new memory"} · proposed by {proposal.proposer.name} ({proposal.source}) · revision {proposal.revision} ·{" "}
        <span className={`badge state-${proposal.state}`} data-testid="proposal-state">{proposal.state.replace("_", " ")}</span>
      </p>
      <ProposalActions
        projectId={proposal.projectId}
        proposalId={proposal.id}
        revision={proposal.revision}
        state={proposal.state}
        canReview={access.role === "lead"}
        isProposer={proposal.proposer.id === caller.userId}
        needsConfirmation={proposal.checks.scope.verdict === "needs-confirmation"}
        hasSecrets={proposal.checks.secrets.length > 0}
        blockers={proposal.checks.blockers.filter((blocker) => blocker !== TEAM_CONVENTION_BLOCKER)}
        editableContent={proposal.checks.secrets.length > 0 ? null : proposal.content}
        previousId={position > 0 ? queue[position - 1]! : null}
        nextId={position >= 0 && position < queue.length - 1 ? queue[position + 1]! : null}
      />
      <Checks proposal={proposal} canReview={access.role === "lead"} />
      <h2>Change</h2>
      <DiffView diff={diff} />
      {proposal.conflict && <Conflict conflict={proposal.conflict} />}
      {proposal.content !== null && (
        <>
          <h2>Preview</h2>
          <div className="panel"><MarkdownBody text={stripFrontmatter(shownContent ?? "")} /></div>
        </>
      )}
      <div className="grid-2">
        <section>
          <h2>Provenance</h2>
          {Object.keys(proposal.provenance).length === 0 ? <p className="muted">None recorded.</p> : (
            <dl className="settings">{Object.entries(proposal.provenance).map(([key, value]) => <div key={key} style={{ display: "contents" }}><dt>{key}</dt><dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd></div>)}</dl>
          )}
          {proposal.committedCommit && <p>Committed as <code>{proposal.committedCommit.slice(0, 12)}</code>. <Link href={`/memories/team/${encodeURIComponent(proposal.projectId)}/${proposal.path.split("/").map(encodeURIComponent).join("/")}`}>See the memory and its history</Link></p>}
          {proposal.rejectionReason && <p><strong>Rejected:</strong> {proposal.rejectionReason}</p>}
        </section>
        <section>
          <h2>History</h2>
          <ol className="events" data-testid="proposal-events">
            {proposal.events.map((event, index) => (
              <li key={index}>{event.at.toISOString().replace("T", " ").slice(0, 16)} · {event.actorName ?? "teammem"}: {event.fromState ? `${event.fromState} → ` : ""}{event.toState} (rev {event.revision}){event.reason ? ` — ${event.reason}` : ""}</li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}

function Checks({ proposal, canReview }: { proposal: ProposalDetail; canReview: boolean }) {
  const { checks } = proposal;
  return (
    <section className="panel" data-testid="proposal-checks">
      {checks.blockers.length === 0 ? <p className="fresh"><strong>No blockers:</strong> this revision may be approved.</p> : (
        <ul className="findings">{checks.blockers.map((blocker) => <li key={blocker} className="stale">{blocker}</li>)}</ul>
      )}
      <p><strong>Scope:</strong> {checks.scope.verdict === "team" ? "team memory" : checks.scope.verdict === "needs-confirmation" ? "feedback: approve only if it is a team convention" : "personal: stays private"}{checks.scope.isAbsoluteRule ? " · reads as an absolute rule (always/never): worth a second look" : ""}</p>
      {checks.scope.reasons.length > 0 && <ul className="muted">{checks.scope.reasons.map((reason) => <li key={reason}>{reason}</li>)}</ul>}
      {checks.secrets.length > 0 && (
        <>
          <p><strong>Secrets:</strong></p>
          <ul data-testid="secret-findings">{checks.secrets.map((secret, index) => <li key={index}><span className="secret-mark">{secret.kind}</span> line {secret.line}, column {secret.column}: <code>{secret.preview}</code></li>)}</ul>
          {proposal.content !== null && <pre className="injection">{splitRedactionMarkers(proposal.content).map((segment, index) => segment.secret ? <mark key={index} className="secret-mark">{segment.secret.kind} {segment.secret.preview}</mark> : <span key={index}>{segment.text}</span>)}</pre>}
        </>
      )}
      {checks.duplicates.length > 0 && (
        <>
          <p><strong>Possible duplicates:</strong></p>
          <ul data-testid="duplicates">{checks.duplicates.map((duplicate) => <li key={duplicate.path}><Link href={`/memories/team/${encodeURIComponent(proposal.projectId)}/${duplicate.path.split("/").map(encodeURIComponent).join("/")}`}>{duplicate.name ?? duplicate.path}</Link> ({duplicate.kind === "same-name" ? "same name" : `${Math.round(duplicate.similarity * 100)}% alike`}){canReview && proposal.content !== null && <SupersedeButton projectId={proposal.projectId} proposalId={proposal.id} targetPath={duplicate.path} />}</li>)}</ul>
        </>
      )}
      <FindingsList findings={checks.lint} emptyText="Lint: no findings." />
    </section>
  );
}

function DiffView({ diff }: { diff: MemoryDiff }) {
  return (
    <div className="panel" data-testid="proposal-diff">
      <table className="diff">
        <thead><tr><th>Before{diff.isNew ? " (new memory)" : ""}</th><th>After{diff.isRetirement ? " (retired)" : ""}</th></tr></thead>
        <tbody>
          {diff.fields.map((field) => (
            <tr key={field.field}>
              <td className={field.isChanged && field.before !== null ? "changed-before" : ""}>{field.before === null ? "" : `${field.field}: ${field.before}`}</td>
              <td className={field.isChanged && field.after !== null ? "changed-after" : ""}>{field.after === null ? "" : `${field.field}: ${field.after}`}</td>
            </tr>
          ))}
          <tr><td colSpan={2} className="muted">body</td></tr>
          {diff.body.map((row, index) => (
            <tr key={index}>
              <td className={row.kind === "removed" ? "removed" : row.kind === "changed" ? "changed-before" : ""}>{row.before ?? ""}</td>
              <td className={row.kind === "added" ? "added" : row.kind === "changed" ? "changed-after" : ""}>{row.after ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Conflict({ conflict }: { conflict: NonNullable<ProposalDetail["conflict"]> }) {
  return (
    <section className="panel error" data-testid="conflict">
      <strong>Conflicted:</strong> the memory changed in the store since this proposal was made{conflict.fields.length ? ` (fields: ${conflict.fields.join(", ")})` : ""}. Edit the proposal into the version you want; nothing was committed.
      <div className="grid-2">
        <div><h3>In the store now</h3><pre className="injection">{conflict.ours ?? "(deleted)"}</pre></div>
        <div><h3>Proposed</h3><pre className="injection">{conflict.theirs ?? "(retire)"}</pre></div>
      </div>
      <details><summary>Common base</summary><pre className="injection">{conflict.base ?? "(none)"}</pre></details>
    </section>
  );
}

function stripFrontmatter(text: string): string {
  return text.replace(/^---\n[\s\S]*?\n---\n?/, "");
}
