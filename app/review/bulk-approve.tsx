"use client";

import { useState } from "react";
import { callApi } from "../_components/api-client";

type Item = { projectId: string; proposalId: string; revision: number; label: string };
type Result = { proposalId: string; state?: string; error?: { message: string } };

/** Approves every clean proposal shown, after one confirmation; each one is still checked. */
export function BulkApprove({ items }: { items: Item[] }) {
  const [results, setResults] = useState<Result[] | null>(null);
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
    setResults(all);
    setBusy(false);
    window.location.reload();
  }

  return (
    <div className="panel row">
      <span>{items.length} clean proposal{items.length === 1 ? "" : "s"} (no lint errors, secrets or scope questions).</span>
      <button className="button" onClick={approveAll} disabled={isBusy}>{isBusy ? "Approving…" : "Approve all clean"}</button>
      {results && <span className="muted">{results.filter((result) => !result.error).length} approved, {results.filter((result) => result.error).length} refused.</span>}
    </div>
  );
}
