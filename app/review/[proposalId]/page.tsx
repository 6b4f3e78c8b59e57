import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { assertCanReadProposal } from "@/lib/auth/assert-proposal-in-project";
import { diffMemory, type MemoryDiff, type WordPiece } from "@/lib/diff/diff-memory";
import { isAppError } from "@/lib/errors";
import { TEAM_CONVENTION_BLOCKER } from "@/lib/review/compute-checks";
import { findFourEyesRefusal } from "@/lib/review/assert-four-eyes";
import { getProposal } from "@/lib/review/get-proposal";
import { listProposals } from "@/lib/review/list-proposals";
import { OPEN_PROPOSAL_STATES, type ProposalDetail } from "@/lib/review/proposal-types";
import { splitRedactionMarkers } from "@/lib/secrets/mask-secret-ranges";
import { FindingsList } from "../../_components/findings-list";
import { MarkdownBody } from "../../_components/markdown";
import { TypeBadge } from "../../_components/type-badge";
import { getConfig, getDatabase } from "../../_server/context";
import { requirePageCaller } from "../../_server/page-caller";
import { EvidencePanel } from "./evidence-panel";
import { ProposalActions } from "./proposal-actions";
import { SupersedeButton } from "./supersede-button";

export const metadata: Metadata = { title: "Proposal · Review" };

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
  const queue = (await listProposals(getConfig(), db, { projectIds: [access.projectId], states: [...OPEN_PROPOSAL_STATES] })).map((item) => item.id);
  const position = queue.indexOf(proposalId);
  const approvalRefusal = access.role === "lead" ? await findFourEyesRefusal(db, { projectId: proposal.projectId, proposerId: proposal.proposer.id, approverId: caller.userId, proposalId: proposal.id, revision: proposal.revision }) : null;
  // getProposal masked every secret as its kind and preview: the value never leaves the server.
  const shownContent = proposal.content;
  const diff = diffMemory(proposal.baseContent, shownContent);

  return (
    <>
      <p className="muted"><Link href="/review">← Review queue</Link>{position >= 0 ? ` · ${position + 1} of ${queue.length} open` : ""}</p>
      <h1>{proposal.name ?? proposal.path}</h1>
      <p className="lead">
        <TypeBadge type={proposal.type} /> <code>{proposal.projectId}/{proposal.path}</code> · {proposal.isRetirement ? "retire this memory" : proposal.baseBlob ? "edit of a team memory" : "new memory"} · proposed by {proposal.proposer.name} ({proposal.proposerRole ?? "no longer in the project"}) via {SOURCE_LABELS[proposal.source]} · revision {proposal.revision} ·{" "}
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
        approvalRefusal={approvalRefusal}
        editableContent={proposal.checks.secrets.length > 0 ? null : proposal.content}
        previousId={position > 0 ? queue[position - 1]! : null}
        nextId={position >= 0 && position < queue.length - 1 ? queue[position + 1]! : null}
      />
      <EvidencePanel proposal={proposal} />
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

const SOURCE_LABELS: Record<ProposalDetail["source"], string> = { member: "the API or CLI", sync: "teammem sync", extraction: "extraction", dashboard: "the dashboard" };

function memoryHref(proposal: ProposalDetail, hash = ""): string {
  return `/memories/team/${encodeURIComponent(proposal.projectId)}/${proposal.path.split("/").map(encodeURIComponent).join("/")}${hash}`;
}

/** What the proposal's state means now: decided proposals say what happened, open ones what blocks them. */
function Outcome({ proposal }: { proposal: ProposalDetail }) {
  const { checks } = proposal;
  if (proposal.state === "committed" && proposal.committedCommit) {
    return (
      <p className="fresh" data-testid="proposal-outcome">
        <strong>In the team store:</strong> commit <code>{proposal.committedCommit.slice(0, 12)}</code>
        {proposal.committedAt ? ` on ${proposal.committedAt.toISOString().replace("T", " ").slice(0, 16)} UTC` : ""}.{" "}
        {proposal.isRetirement ? "The memory was retired; its history stays in git." : <Link href={memoryHref(proposal, "#history")}>See the memory and its history</Link>}
      </p>
    );
  }
  if (proposal.state === "rejected") return <p className="stale" data-testid="proposal-outcome"><strong>Rejected:</strong> {proposal.rejectionReason ?? "no reason recorded"}. A lead can reopen it.</p>;
  if (proposal.state === "withdrawn") return <p className="muted" data-testid="proposal-outcome"><strong>Withdrawn</strong> by its proposer; the content is kept.</p>;
  if (proposal.state === "superseded") return <p className="muted" data-testid="proposal-outcome"><strong>Superseded</strong> by a later proposal.</p>;
  if (checks.blockers.length > 0) return <ul className="findings" data-testid="proposal-outcome">{checks.blockers.map((blocker) => <li key={blocker} className="stale">{blocker}</li>)}</ul>;
  return <p className="fresh" data-testid="proposal-outcome"><strong>No blockers:</strong> this revision may be approved{checks.duplicates.length > 0 ? " once you have compared it with the possible duplicates below" : ""}.</p>;
}

function Checks({ proposal, canReview }: { proposal: ProposalDetail; canReview: boolean }) {
  const { checks } = proposal;
  return (
    <section className="panel" data-testid="proposal-checks">
      <Outcome proposal={proposal} />
      <p><strong>Scope:</strong> {checks.scope.verdict === "team" ? "team memory" : checks.scope.verdict === "needs-confirmation" ? `${proposal.type ?? "no type"}: approve only if it is a team convention` : "personal: stays private"}{checks.scope.isAbsoluteRule ? " · reads as an absolute rule (always/never): worth a second look" : ""}</p>
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
          <ul data-testid="duplicates">{checks.duplicates.map((duplicate) => <li key={duplicate.path}><Link href={`/memories/team/${encodeURIComponent(proposal.projectId)}/${duplicate.path.split("/").map(encodeURIComponent).join("/")}`}>{duplicate.name ?? duplicate.path}</Link> ({duplicate.kind === "same-name" ? "same name" : `${Math.round(duplicate.similarity * 100)}% alike`}){canReview && proposal.content !== null && (OPEN_PROPOSAL_STATES as readonly string[]).includes(proposal.state) && <SupersedeButton projectId={proposal.projectId} proposalId={proposal.id} targetPath={duplicate.path} />}</li>)}</ul>
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
              <td className={field.isChanged && field.before !== null ? "changed-before" : ""}>{field.before === null ? "" : <>{field.field}: <Words pieces={field.words?.before} text={field.before} /></>}</td>
              <td className={field.isChanged && field.after !== null ? "changed-after" : ""}>{field.after === null ? "" : <>{field.field}: <Words pieces={field.words?.after} text={field.after} /></>}</td>
            </tr>
          ))}
          <tr><td colSpan={2} className="muted">body</td></tr>
          {diff.body.map((row, index) => (
            <tr key={index}>
              <td className={row.kind === "removed" ? "removed" : row.kind === "changed" ? "changed-before" : ""}><Words pieces={row.words?.before} text={row.before ?? ""} /></td>
              <td className={row.kind === "added" ? "added" : row.kind === "changed" ? "changed-after" : ""}><Words pieces={row.words?.after} text={row.after ?? ""} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A line with its changed words marked (the words that differ from the other side). */
function Words({ pieces, text }: { pieces: WordPiece[] | undefined; text: string }) {
  if (!pieces) return <>{text}</>;
  return <>{pieces.map((piece, index) => (piece.isChanged ? <mark key={index} className="word-changed">{piece.text}</mark> : <span key={index}>{piece.text}</span>))}</>;
}

function Conflict({ conflict }: { conflict: NonNullable<ProposalDetail["conflict"]> }) {
  if (conflict.twin) {
    return (
      <section className="panel error" data-testid="conflict">
        <strong>Conflicted:</strong> {conflict.twin} entered the team store first, and this file&apos;s name differs from it in letter case only: a macOS or
        Windows checkout cannot hold both. Nothing was committed. Reject this proposal, and propose the change to {conflict.twin} instead.
      </section>
    );
  }
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
