import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { listMemberships } from "@/lib/auth/manage-users";
import { listProposals } from "@/lib/review/list-proposals";
import { OPEN_PROPOSAL_STATES, PROPOSAL_SOURCES, type ProposalSummary } from "@/lib/review/proposal-types";
import { listAttentionPoints } from "@/lib/review/review-attention";
import { firstValues } from "../_components/first-values";
import { TypeBadge } from "../_components/type-badge";
import { getConfig, getDatabase } from "../_server/context";
import { requirePageCaller } from "../_server/page-caller";
import { BulkApprove } from "./bulk-approve";
import { selectBulkApprovable } from "./select-bulk-approvable";

export const metadata: Metadata = { title: "Review" };

export const dynamic = "force-dynamic";

const Query = z.object({
  project: z.string().max(100).optional(),
  source: z.enum(PROPOSAL_SOURCES).optional().catch(undefined),
  check: z.enum(["clean", "blocked"]).optional().catch(undefined),
  view: z.enum(["open", "closed"]).catch("open").default("open"),
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ReviewPage({ searchParams }: Props) {
  const caller = await requirePageCaller("/review");
  const query = Query.parse(firstValues(await searchParams));
  const db = getDatabase();
  const memberships = await listMemberships(db, caller);
  const projectIds = memberships.map((membership) => membership.projectId).filter((id) => !query.project || id === query.project);
  const closedStates = ["approved", "committed", "rejected", "withdrawn", "superseded"] as const;
  const proposals = await listProposals(getConfig(), db, { projectIds, states: query.view === "open" ? [...OPEN_PROPOSAL_STATES] : [...closedStates], source: query.source, check: query.check });
  const ledProjects = new Set(memberships.filter((membership) => membership.role === "lead").map((membership) => membership.projectId));
  const link = (changes: Record<string, string | undefined>) =>
    `/review?${new URLSearchParams(Object.entries({ project: query.project, source: query.source, check: query.check, view: query.view, ...changes }).filter((entry): entry is [string, string] => entry[1] !== undefined))}`;
  const clean = await selectBulkApprovable({ db, approverId: caller.userId, ledProjectIds: ledProjects, proposals });

  return (
    <>
      <h1>Review</h1>
      <p className="lead">Proposed memories wait here for a lead before they enter the team store: diff, secret findings, scope verdict and near-duplicates for each. Oldest first.</p>
      <div className="filters" aria-label="View">
        <Link href={link({ view: "open" })} aria-current={query.view === "open"}>Open</Link>
        <Link href={link({ view: "closed" })} aria-current={query.view === "closed"}>Decided</Link>
        <span className="muted">·</span>
        <Link href={link({ check: undefined })} aria-current={!query.check}>All checks</Link>
        <Link href={link({ check: "clean" })} aria-current={query.check === "clean"}>Clean</Link>
        <Link href={link({ check: "blocked" })} aria-current={query.check === "blocked"}>Blocked</Link>
        <span className="muted">·</span>
        <Link href={link({ source: undefined })} aria-current={!query.source}>Any source</Link>
        {PROPOSAL_SOURCES.map((source) => <Link key={source} href={link({ source })} aria-current={query.source === source}>{source}</Link>)}
      </div>
      {memberships.length > 1 && (
        <div className="filters" aria-label="Projects">
          <Link href={link({ project: undefined })} aria-current={!query.project}>All projects</Link>
          {memberships.map((membership) => <Link key={membership.projectId} href={link({ project: membership.projectId })} aria-current={query.project === membership.projectId}>{membership.projectName}</Link>)}
        </div>
      )}
      {clean.length > 0 && <BulkApprove items={clean.map((proposal) => ({ projectId: proposal.projectId, proposalId: proposal.id, revision: proposal.revision, label: proposal.name ?? proposal.path }))} />}
      {proposals.length === 0 ? (
        <div className="panel empty">{query.view === "open" ? "Nothing to review. Members propose memories with the CLI or the API; they will appear here." : "No decided proposals yet."}</div>
      ) : (
        <table data-testid="review-queue">
          <thead><tr><th>Type</th><th>Memory</th><th>Project</th><th>From</th><th>State</th><th>Checks</th><th className="nowrap">Proposed</th></tr></thead>
          <tbody>{proposals.map((proposal) => <QueueRow key={proposal.id} proposal={proposal} />)}</tbody>
        </table>
      )}
    </>
  );
}

function QueueRow({ proposal }: { proposal: ProposalSummary }) {
  const points = listAttentionPoints(proposal.checks);
  return (
    <tr data-testid="queue-row">
      <td><TypeBadge type={proposal.type} /></td>
      <td>
        <Link href={`/review/${proposal.id}`}><strong>{proposal.name ?? proposal.path}</strong></Link>
        <div className="muted"><code>{proposal.path}</code>{proposal.isRetirement ? " · retire" : ""} · revision {proposal.revision}</div>
      </td>
      <td>{proposal.projectId}</td>
      <td>{proposal.proposer.name}<div className="muted">{proposal.source}</div></td>
      <td><span className={`badge state-${proposal.state}`}>{proposal.state.replace("_", " ")}</span></td>
      <td>
        {points.length === 0 ? <span className="fresh">clean</span> : (
          <ul className="attention" data-testid="queue-attention">{points.map((point) => <li key={point} className={point.startsWith("possible duplicate") ? "muted" : "stale"}>{point}</li>)}</ul>
        )}
      </td>
      <td className="nowrap">{proposal.createdAt.toISOString().slice(0, 10)}</td>
    </tr>
  );
}
