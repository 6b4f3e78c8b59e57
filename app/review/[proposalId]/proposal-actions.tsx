"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { callApi } from "../../_components/api-client";

type Props = {
  projectId: string;
  proposalId: string;
  revision: number;
  state: string;
  canReview: boolean;
  isProposer: boolean;
  needsConfirmation: boolean;
  hasSecrets: boolean;
  blockers: string[];
  /** Why this reviewer may not approve (four eyes), or null. */
  approvalRefusal: string | null;
  /** Null while the content holds a secret: it is never sent to the browser to edit. */
  editableContent: string | null;
  previousId: string | null;
  nextId: string | null;
};

const DECIDABLE = new Set(["submitted", "in_review", "conflicted", "blocked_secret", "commit_failed", "approved"]);
const REOPENABLE = new Set(["rejected", "withdrawn", "commit_failed"]);

export function ProposalActions(props: Props) {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isEditing, setEditing] = useState(false);
  const [isConfirmed, setConfirmed] = useState(false);
  const [areShortcutsReady, setShortcutsReady] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  const base = `/api/projects/${encodeURIComponent(props.projectId)}/proposals/${encodeURIComponent(props.proposalId)}`;

  // Set before React renders the disabled buttons: a key held down or pressed twice acts once.
  const acting = useRef(false);
  const act = useCallback(async (action: string, body: unknown = undefined) => {
    if (acting.current) return;
    acting.current = true;
    setBusy(true);
    setError(null);
    try {
      await callApi(`${base}/${action}`, { method: "POST", body });
      window.location.reload();
    } catch (failure) {
      setError((failure as Error).message);
      acting.current = false;
      setBusy(false);
    }
  }, [base]);

  // The keys do what the buttons allow, no more: nothing on a decided proposal, no approval
  // while a blocker, a refusal or an unticked confirmation stands.
  const isOpen = DECIDABLE.has(props.state);
  const canDecide = props.canReview && isOpen && !isBusy;
  const canApprove = canDecide && props.blockers.length === 0 && props.approvalRefusal === null && (!props.needsConfirmation || isConfirmed);
  const canEdit = canDecide && props.editableContent !== null;

  const approve = useCallback(() => act("approve", { revision: props.revision, ...(props.needsConfirmation ? { confirmTeamConvention: isConfirmed } : {}) }), [act, props.revision, props.needsConfirmation, isConfirmed]);
  const reject = useCallback(() => {
    const reason = window.prompt("Why is this proposal rejected? (the proposer sees this)");
    if (reason === null) return; // cancelled
    if (!reason.trim()) setError("Not rejected: a rejection needs a reason, which the proposer sees. Press r again to give one.");
    else void act("reject", { reason: reason.trim() });
  }, [act]);

  // j/k move through the open queue, a approves, r rejects, e edits (not while typing).
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      // Not while typing; a ticked checkbox (the team-convention confirmation) keeps the keys.
      if (event.metaKey || event.ctrlKey || event.altKey || target?.closest("input:not([type=checkbox]), textarea, select")) return;
      const shortcut = shortcutFor(event.key);
      if (!shortcut) return;
      // The key is the shortcut's, not text: `e` focuses the editor before the browser would
      // insert the key, and without this the new revision started with an "e".
      event.preventDefault();
      shortcut();
    }
    function shortcutFor(key: string): (() => void) | null {
      if (key === "j" && props.nextId) return () => window.location.assign(`/review/${props.nextId}`);
      if (key === "k" && props.previousId) return () => window.location.assign(`/review/${props.previousId}`);
      if (key === "a" && canApprove) return () => void approve();
      if (key === "r" && canDecide) return reject;
      if (key === "e" && canEdit) return () => setEditing(true);
      return null;
    }
    window.addEventListener("keydown", onKey);
    setShortcutsReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [approve, reject, props.nextId, props.previousId, canApprove, canDecide, canEdit]);

  useEffect(() => {
    if (isEditing) editor.current?.focus();
  }, [isEditing]);

  // data-shortcuts says the keys work: until the page is hydrated a key press does nothing.
  return (
    <section className="panel" aria-label="Actions" data-shortcuts={areShortcutsReady ? "ready" : "loading"}>
      {props.canReview && isOpen && (
        <div className="actions">
          {props.needsConfirmation && (
            <label><input type="checkbox" checked={isConfirmed} onChange={(event) => setConfirmed(event.target.checked)} /> This feedback is a team convention, not a personal preference</label>
          )}
          <button className="primary" onClick={approve} disabled={isBusy || props.blockers.length > 0 || props.approvalRefusal !== null || (props.needsConfirmation && !isConfirmed)} title={props.approvalRefusal ?? "a"}>Approve</button>
          <button onClick={reject} disabled={isBusy} title="r">Reject…</button>
          {props.hasSecrets && <button onClick={() => act("redact", undefined)} disabled={isBusy}>Apply redaction</button>}
          {props.editableContent !== null && <button onClick={() => setEditing(!isEditing)} disabled={isBusy} title="e">Edit</button>}
        </div>
      )}
      {props.canReview && isOpen && props.approvalRefusal && <p className="muted" data-testid="approval-refusal">{props.approvalRefusal}</p>}
      {props.canReview && REOPENABLE.has(props.state) && <div className="actions"><button onClick={() => act("reopen", undefined)} disabled={isBusy}>Reopen</button></div>}
      {props.isProposer && isOpen && <div className="actions"><button onClick={() => act("withdraw", undefined)} disabled={isBusy}>Withdraw my proposal</button></div>}
      {!props.canReview && !props.isProposer && <p className="muted">Only a lead of {props.projectId} can decide on this proposal.</p>}
      {isEditing && props.editableContent !== null && (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            void act("revise", { content: String(form.get("content")), note: String(form.get("note") ?? "") || undefined });
          }}
        >
          <label>Content (a new revision; approvals of the old one are cleared)<textarea ref={editor} name="content" rows={14} defaultValue={props.editableContent} /></label>
          <label>Note<input name="note" maxLength={2000} placeholder="what you changed" /></label>
          <button type="submit" disabled={isBusy}>Save revision</button>
        </form>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {/* Only the keys that do something for this reader. */}
      <p className="muted" style={{ marginBottom: 0 }}>
        Keys: <span className="kbd">j</span>/<span className="kbd">k</span> next/previous
        {props.canReview && isOpen && <>, <span className="kbd">a</span> approve, <span className="kbd">r</span> reject{props.editableContent !== null && <>, <span className="kbd">e</span> edit</>}</>}.
      </p>
    </section>
  );
}
