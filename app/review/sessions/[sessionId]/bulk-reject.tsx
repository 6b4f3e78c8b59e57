"use client";

import { useState } from "react";
import { callApi } from "../../../_components/api-client";

type Item = { projectId: string; proposalId: string; label?: string };

/** Rejects every open proposal of one session with one reason (each through the reject route). */
export function BulkReject({ items }: { items: Item[] }) {
  const [isBusy, setBusy] = useState(false);
  const [refusals, setRefusals] = useState<string[]>([]);
  async function rejectAll() {
    const reason = window.prompt(`Reject all ${items.length} open proposal${items.length === 1 ? "" : "s"} of this session? Give the reason the proposer sees:`);
    if (!reason?.trim()) return;
    setBusy(true);
    const failed: string[] = [];
    for (const item of items) {
      await callApi(`/api/projects/${encodeURIComponent(item.projectId)}/proposals/${encodeURIComponent(item.proposalId)}/reject`, { method: "POST", body: { reason: reason.trim() } })
        .catch((failure: Error) => failed.push(`${item.label ?? item.proposalId}: ${failure.message}`));
    }
    // A refusal (or an unreachable server) stays on the page; reloading would hide it.
    if (failed.length === 0) return window.location.reload();
    setRefusals(failed);
    setBusy(false);
  }
  return (
    <>
      <button className="button" onClick={rejectAll} disabled={isBusy}>{isBusy ? "Rejecting…" : `Reject all ${items.length} open`}</button>
      {refusals.length > 0 && (
        <div className="form-error" role="alert">
          Not rejected:
          <ul>{refusals.map((refusal) => <li key={refusal}>{refusal}</li>)}</ul>
        </div>
      )}
    </>
  );
}
