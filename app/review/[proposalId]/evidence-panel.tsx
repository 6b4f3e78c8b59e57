import Link from "next/link";
import type { ProposalDetail } from "@/lib/review/proposal-types";

type EvidenceItem = { uuid: string; role: string; excerpt: string };

const ROLE_LABELS: Record<string, string> = { user: "The user said", assistant: "Claude said", "memory-saved": "Memory saved", "compact-summary": "Summary after compacting", "daily-log": "The daily log says" };

/**
 * Why this memory was proposed: for extraction, the quotes that led to it (the user's words
 * first) with a link to their place in the shared conversation; for sync, which checkout and
 * commit it came from and, when the member shared it, the transcript evidence.
 */
export function EvidencePanel({ proposal }: { proposal: ProposalDetail }) {
  const provenance = proposal.provenance;
  if (proposal.source !== "extraction" && proposal.source !== "sync") return null;
  const evidence = readEvidence(provenance.evidence ?? (isRecord(provenance.writeEvidence) ? provenance.writeEvidence.messages : undefined));
  const session = typeof provenance.session === "string" ? provenance.session : null;
  const canOpenConversation = proposal.source === "extraction" && provenance.isExcerptShared === true && session !== null;
  const sessionHref = (uuid?: string) => `/review/sessions/${encodeURIComponent(session ?? "")}?project=${encodeURIComponent(proposal.projectId)}${uuid ? `#m-${uuid}` : ""}`;
  return (
    <section className="panel" data-testid="proposal-evidence">
      <h2>Evidence</h2>
      {proposal.source === "sync" && <SyncOrigin proposal={proposal} />}
      {proposal.source === "extraction" && provenance.kind === "dream" && (
        <p className="muted" data-testid="dream-origin">Distilled from {Array.isArray(provenance.logs) ? provenance.logs.length : "the"} daily log{Array.isArray(provenance.logs) && provenance.logs.length === 1 ? "" : "s"} by the consolidation model (<code>teammem dream</code>).</p>
      )}
      {proposal.source === "extraction" && provenance.kind !== "dream" && (
        <p className="muted">
          From session <code>{session ?? "unknown"}</code> by {provenance.selector === "model" ? "the extraction model" : "the rule-based extractor (low confidence)"}.{" "}
          {canOpenConversation ? <Link href={sessionHref()}>Open the conversation and this session&apos;s other proposals</Link> : "The member did not share the conversation excerpt."}
        </p>
      )}
      {evidence.length === 0 ? (
        <p className="muted" data-testid="no-evidence">No evidence was shared{proposal.source === "sync" ? " (the member can opt in with `teammem sync --share-evidence`)" : ""}.</p>
      ) : (
        <ol className="evidence">
          {[...evidence].sort((left, right) => Number(right.role === "user") - Number(left.role === "user")).map((item) => (
            <li key={item.uuid} data-testid="evidence-item" className={item.role === "user" ? "evidence-user" : "muted"}>
              <strong>{ROLE_LABELS[item.role] ?? item.role}:</strong> <q>{item.excerpt}</q>
              {canOpenConversation && <> <Link href={sessionHref(item.uuid)}>in context</Link></>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function SyncOrigin({ proposal }: { proposal: ProposalDetail }) {
  const { checkout, baseCommit, clientVersion, writeEvidence } = proposal.provenance;
  const written = isRecord(writeEvidence) ? writeEvidence : null;
  return (
    <dl className="settings" data-testid="sync-origin">
      <dt>Member</dt><dd>{proposal.proposer.name}</dd>
      {typeof checkout === "string" && <><dt>Checkout</dt><dd><code>{checkout}</code></dd></>}
      {typeof baseCommit === "string" && <><dt>Base commit</dt><dd><code>{baseCommit.slice(0, 12)}</code></dd></>}
      {typeof clientVersion === "string" && <><dt>Client</dt><dd>teammem {clientVersion}</dd></>}
      {written && <><dt>Written</dt><dd>{written.writtenBy === "background-extraction" ? "by Claude Code's background extraction" : "by the main agent at the user's request"}{typeof written.time === "string" ? `, ${written.time.replace("T", " ").slice(0, 16)}` : ""}{typeof written.session === "string" ? ` in session ${written.session}` : ""}</dd></>}
    </dl>
  );
}

function readEvidence(value: unknown): EvidenceItem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => ({ uuid: String(item.uuid ?? ""), role: String(item.role ?? ""), excerpt: String(item.excerpt ?? "") })).filter((item) => item.excerpt !== "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
