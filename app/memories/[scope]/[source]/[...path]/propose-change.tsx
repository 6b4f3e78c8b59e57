"use client";

import { useRef, useState } from "react";
import { callApi } from "../../../../_components/api-client";

/**
 * Team memories are never edited in place: an edit or a retirement becomes a proposal that a
 * lead reviews like any other, made against the blob shown here (so a concurrent change merges
 * or conflicts instead of being overwritten).
 */
export function ProposeChange({ projectId, path, content, baseBlob }: { projectId: string; path: string; content: string; baseBlob: string }) {
  const [isEditing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);
  // A double click sends once: the ref is set before React renders the disabled button.
  const sending = useRef(false);

  async function propose(next: string | null) {
    if (sending.current) return;
    sending.current = true;
    setSending(true);
    setError(null);
    try {
      const result = await callApi<{ proposal: { id: string } }>(`/api/projects/${encodeURIComponent(projectId)}/proposals`, {
        method: "POST",
        body: { path, content: next, baseBlob },
      });
      window.location.assign(`/review/${result.proposal.id}`);
    } catch (failure) {
      setError((failure as Error).message);
      sending.current = false;
      setSending(false);
    }
  }

  return (
    <section className="panel" aria-label="Propose a change">
      <div className="actions">
        <button onClick={() => setEditing(!isEditing)}>Propose an edit</button>
        <button disabled={isSending} onClick={() => window.confirm("Propose retiring this memory? A lead reviews it; the file stays in git history.") && void propose(null)}>Propose retiring it</button>
      </div>
      {isEditing && (
        <form className="form" onSubmit={(event) => { event.preventDefault(); void propose(String(new FormData(event.currentTarget).get("content"))); }}>
          <label>The whole file, frontmatter included<textarea name="content" rows={14} defaultValue={content} /></label>
          <button type="submit" disabled={isSending}>{isSending ? "Submitting…" : "Submit for review"}</button>
        </form>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </section>
  );
}
