"use client";

import { useState } from "react";
import { callApi } from "../../../_components/api-client";

type Item = { projectId: string; proposalId: string };

/** Rejects every open proposal of one session with one reason (each through the reject route). */
export function BulkReject({ items }: { items: Item[] }) {
  const [isBusy, setBusy] = useState(false);
  async function rejectAll() {
    const reason = window.prompt(`Reject all ${items.length} open proposal${items.length === 1 ? "" : "s"} of this session? Give the reason the proposer sees:`);
    if (!reason?.trim()) return;
    setBusy(true);
    for (const item of items) {
      await callApi(`/api/projects/${encodeURIComponent(item.projectId)}/proposals/${encodeURIComponent(item.proposalId)}/reject`, { method: "POST", body: { reason: reason.trim() } }).catch(() => null);
    }
    window.location.reload();
  }
  return <button className="button" onClick={rejectAll} disabled={isBusy}>{isBusy ? "Rejecting…" : `Reject all ${items.length} open`}</button>;
}
