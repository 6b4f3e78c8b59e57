import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { assertProjectPermission } from "@/lib/auth/permissions";
import { isAppError } from "@/lib/errors";
import { getExtractionSession } from "@/lib/extraction/get-extraction-session";
import { speakerOf } from "@/lib/transcripts/conversation-view";
import { firstValues } from "../../../_components/first-values";
import { getDatabase } from "../../../_server/context";
import { requirePageCaller } from "../../../_server/page-caller";
import { BulkApprove } from "../../bulk-approve";
import { selectBulkApprovable } from "../../select-bulk-approvable";
import { BulkReject } from "./bulk-reject";

export const metadata: Metadata = { title: "Extraction session · Review" };

export const dynamic = "force-dynamic";

const Query = z.object({ project: z.string().max(100).catch("").default("") });
type Props = { params: Promise<{ sessionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One Claude Code session's extraction proposals, reviewed together, beside the conversation the member shared. */
export default async function SessionPage({ params, searchParams }: Props) {
  const { sessionId } = await params;
  const { project } = Query.parse(firstValues(await searchParams));
  const caller = await requirePageCaller(`/review/sessions/${encodeURIComponent(sessionId)}?project=${encodeURIComponent(project)}`);
  const db = getDatabase();
  let role;
  try {
    role = await assertProjectPermission(db, caller, project, "read");
  } catch (error) {
    if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "FORBIDDEN")) notFound();
    throw error;
  }
  const session = await getExtractionSession(db, project, sessionId);
  if (!session) notFound();
  const open = session.proposals.filter((proposal) => proposal.state === "submitted" || proposal.state === "in_review");
  const clean = await selectBulkApprovable({ db, approverId: caller.userId, ledProjectIds: new Set(role === "lead" ? [project] : []), proposals: open });

  return (
    <>
      <p className="muted"><Link href="/review?source=extraction">← Extraction proposals</Link></p>
      <h1>Session <code>{sessionId}</code></h1>
      <p className="lead">What extraction proposed from this Claude Code session, and the conversation around it (redacted, as the member shared it).</p>
      <h2>Proposals ({session.proposals.length})</h2>
      <table data-testid="session-proposals">
        <thead><tr><th>Memory</th><th>State</th></tr></thead>
        <tbody>{session.proposals.map((proposal) => <tr key={proposal.id}><td><Link href={`/review/${proposal.id}`}>{proposal.name ?? proposal.path}</Link> <span className="muted"><code>{proposal.path}</code></span></td><td><span className={`badge state-${proposal.state}`}>{proposal.state.replace("_", " ")}</span></td></tr>)}</tbody>
      </table>
      {role === "lead" && open.length > 0 && (
        <div className="row" data-testid="session-bulk">
          {clean.length > 0 && <BulkApprove items={clean.map((proposal) => ({ projectId: project, proposalId: proposal.id, revision: proposal.revision, label: proposal.name ?? proposal.path }))} />}
          <BulkReject items={open.map((proposal) => ({ projectId: project, proposalId: proposal.id, label: proposal.name ?? proposal.path }))} />
        </div>
      )}
      <h2>Conversation</h2>
      {session.excerpt === null ? <p className="muted" data-testid="no-excerpt">The member did not share the conversation excerpt; each proposal still shows its quoted evidence.</p> : (
        <ol className="conversation" data-testid="conversation">
          {session.excerpt.map((message) => (
            <li key={message.uuid} id={`m-${message.uuid}`} className={`message message-${message.kind}`}>
              <strong>{speakerOf(message.kind)}</strong>{message.timestamp ? <span className="muted"> · {message.timestamp.replace("T", " ").slice(0, 16)}</span> : null}
              {message.text && <pre className="injection">{message.text}</pre>}
              {message.tools.length > 0 && <ul className="muted">{message.tools.map((tool, index) => <li key={index}>ran {tool.name} <code>{tool.target}</code>{tool.isError ? " — failed" : ""}</li>)}</ul>}
              {message.writtenPaths.length > 0 && <p className="muted">wrote {message.writtenPaths.map((written) => <code key={written}>{written}</code>)}</p>}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
