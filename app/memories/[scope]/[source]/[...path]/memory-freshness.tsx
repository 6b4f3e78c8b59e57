"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { MemoryFreshnessDetail } from "@/lib/stale/load-memory-freshness";
import { SIGNAL_LABEL } from "@/lib/stale/stale-signal";
import { callApi } from "../../../../_components/api-client";
import { useHydrated } from "../../../../_components/use-hydrated";

type Props = { projectId: string; path: string; freshness: MemoryFreshnessDetail; canMarkStillTrue: boolean; canPropose: boolean };

/** Each staleness signal with its evidence, the checks that could not run, and "Still true" for leads. */
export function MemoryFreshness({ projectId, path, freshness, canMarkStillTrue, canPropose }: Props) {
  const toChange = canPropose ? "; to change or retire it, propose below." : ".";
  const isHydrated = useHydrated();
  const router = useRouter();
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function stillTrue() {
    setError(null);
    try {
      const outcome = await callApi<{ commit: string; verifiedAt: string }>(`/api/projects/${encodeURIComponent(projectId)}/still-true`, { method: "POST", body: { path } });
      setStatus(`Recorded as still true on ${outcome.verifiedAt} (commit ${outcome.commit.slice(0, 7)}). Its age restarts today, here and on every member machine after their next sync.`);
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <section data-testid="memory-freshness">
      <p>
        <span className={`badge ${freshness.state === "stale" ? "warn-badge" : ""}`} data-testid="freshness-state">{freshness.state ?? "not checked"}</span>
        {freshness.codeCommit && <span className="muted"> Checked against code commit {freshness.codeCommit.slice(0, 7)}.</span>}
      </p>
      {freshness.signals.length === 0 ? (
        <p className="muted">No reason to doubt it was found.</p>
      ) : (
        <ul data-testid="stale-signals">
          {freshness.signals.map((signal, index) => (
            <li key={`${signal.kind}-${index}`}><strong>{SIGNAL_LABEL[signal.kind]}:</strong> {signal.message}</li>
          ))}
        </ul>
      )}
      {freshness.notes.map((note) => <p key={note} className="muted">{note}</p>)}
      {freshness.notChecked.filter((item) => !item.includes("recall history")).map((item) => <p key={item} className="muted" data-testid="not-checked">{item}</p>)}
      {canMarkStillTrue ? (
        <>
          <button type="button" onClick={() => void stillTrue()} disabled={!isHydrated}>Still true</button>{" "}
          <span className="muted">Confirms it against today&apos;s code{toChange}</span>
        </>
      ) : (
        <p className="muted" data-testid="still-true-leads-only">A lead of {projectId} can confirm it is still true{toChange}</p>
      )}
      {status && <p role="status">{status}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {freshness.verifications.length > 0 && (
        <p className="muted" data-testid="verifications">Verified: {freshness.verifications.map((verification) => `${verification.userName} on ${verification.at.toISOString().slice(0, 10)}`).join("; ")}</p>
      )}
    </section>
  );
}
