"use client";

import { useState } from "react";
import { callApi } from "../_components/api-client";

type Item = { projectId: string; proposalId: string; revision: number; label: string };
type Result = { proposalId: string; state?: string; error?: { message: string } };
type Refusal = { label: string; message: string };

/** Approves every clean proposal shown, after one confirmation; each one is still checked. */
export function BulkApprove({ items }: { items: Item[] }) {
  const [outcome, setOutcome] = useState<{ approved: number; refusals: Refusal[] } | null>(null);
  const [isBusy, setBusy] = useState(false);

  async function approveAll() {
    if (!window.confirm(`Approve ${items.length} clean proposal${items.length === 1 ? "" : "s"} into the team store?\n\n${items.map((item) => `• ${item.label}`).join("\n")}`)) return;
    setBusy(true);
    const byProject = new Map<string, Item[]>();
    for (const item of items) byProject.set(item.projectId, [...(byProject.get(item.projectId) ?? []), item]);
    const all: Result[] = [];
    for (const [projectId, group] of byProject) {
      const response = await callApi<{ results: Result[] }>(`/api/projects/${encodeURIComponent(projectId)}/proposals/bulk-approve`, {
        method: "POST",
        body: { items: group.map(({ proposalId, revision }) => ({ proposalId, revision })) },
      }).catch((error: Error) => ({ results: group.map((item) => ({ proposalId: item.proposalId, error: { message: error.message } })) }));
      all.push(...response.results);
    }
    const labels = new Map(items.map((item) => [item.proposalId, item.label]));
    const refusals = all.flatMap((result) => (result.error ? [{ label: labels.get(result.proposalId) ?? result.proposalId, message: result.error.message }] : []));
    // Each refusal comes inside a 200 answer: reloading at once would hide why a proposal stayed.
    if (refusals.length === 0) return window.location.reload();
    setOutcome({ approved: all.length - refusals.length, refusals });
    setBusy(false);
  }

  return (
    <div className="panel" data-testid="bulk-approve">
      <div className="row">
        <span>{items.length} clean proposal{items.length === 1 ? "" : "s"} (no lint errors, secrets or scope questions).</span>
        <button className="button" onClick={approveAll} disabled={isBusy || outcome !== null}>{isBusy ? "Approving…" : "Approve all clean"}</button>
      </div>
      {outcome && (
        <div className="form-error" role="alert" data-testid="bulk-approve-refusals">
          {outcome.approved} approved, {outcome.refusals.length} not approved:
          <ul>{outcome.refusals.map((refusal) => <li key={refusal.label}><strong>{refusal.label}</strong>: {refusal.message}</li>)}</ul>
          <button className="link-button" onClick={() => window.location.reload()}>Show the queue as it is now</button>
        </div>
      )}
    </div>
  );
}
