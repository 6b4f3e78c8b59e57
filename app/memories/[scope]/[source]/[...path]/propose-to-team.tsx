"use client";

import Link from "next/link";
import { useState } from "react";
import { callApi } from "../../../../_components/api-client";

type Props = {
  folder: string;
  path: string;
  content: string | null;
  blockedReason: string | null;
  type: string | null;
  needsConventionConfirmation: boolean;
  projects: { id: string; name: string }[];
  defaultProjectId: string | null;
  /** Team memories that already hold this one (same text or same name). */
  teamCopies: { projectId: string; path: string; match: "same-content" | "same-path" }[];
};

/**
 * "Propose to team": a private memory becomes a proposal a lead reviews, never a direct write to
 * the store. T2 guides what is offered; the server decided what may be sent (content is null
 * when it may not).
 */
export function ProposeToTeam({ folder, path, content, blockedReason, type, needsConventionConfirmation, projects, defaultProjectId, teamCopies }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);
  const canPropose = content !== null && projects.length > 0;

  async function propose(form: FormData) {
    setError(null);
    setSending(true);
    try {
      const projectId = String(form.get("project"));
      const result = await callApi<{ proposal: { id: string } }>(`/api/projects/${encodeURIComponent(projectId)}/proposals`, {
        method: "POST",
        body: { path: String(form.get("path")).trim(), content, baseBlob: null, provenance: { from: "private memory", folder, path } },
      });
      window.location.assign(`/review/${result.proposal.id}`);
    } catch (failure) {
      setError((failure as Error).message);
      setSending(false);
    }
  }

  return (
    <section className="panel" aria-label="Propose to team" data-testid="propose-to-team">
      <h2>Propose to team</h2>
      {teamCopies.map((copy) => (
        <p key={`${copy.projectId}/${copy.path}`} className="muted" data-testid="team-copy">
          Already in the team: <Link href={`/memories/team/${encodeURIComponent(copy.projectId)}/${copy.path.split("/").map(encodeURIComponent).join("/")}`}>{copy.projectId}/{copy.path}</Link>
          {copy.match === "same-content" ? " (the same text)" : " (the same name, different text)"}.
        </p>
      ))}
      {blockedReason ? (
        <p className="status-warn" data-testid="propose-blocked">{blockedReason}</p>
      ) : projects.length === 0 ? (
        <p className="muted">You are not a member of any project, so there is no team to propose to. Ask a lead to add you.</p>
      ) : (
        <p className="muted">
          A lead of the project reviews it before any member&apos;s agent sees it; your private copy stays as it is.
          {needsConventionConfirmation && (
            <strong data-testid="convention-note"> {type === "feedback" ? "This is a feedback memory" : "This memory has no type"}: the lead will be asked to confirm it is a convention for the whole team, not one person&apos;s preference.</strong>
          )}
        </p>
      )}
      <form className="form" onSubmit={(event) => { event.preventDefault(); void propose(new FormData(event.currentTarget)); }}>
        <label>
          Project
          <select name="project" defaultValue={defaultProjectId ?? undefined} disabled={!canPropose}>
            {projects.map((project) => <option key={project.id} value={project.id}>{project.name} ({project.id})</option>)}
          </select>
        </label>
        <label>
          File name in the team store
          <input name="path" defaultValue={path} disabled={!canPropose} required maxLength={300} />
        </label>
        <button type="submit" disabled={!canPropose || isSending}>Propose to team</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </section>
  );
}
