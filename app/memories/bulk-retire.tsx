"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../_components/api-client";
import { useHydrated } from "../_components/use-hydrated";

type StaleRow = { path: string; name: string; reasons: string };

/** Several stale memories proposed for retirement at once: one reviewable proposal each. */
export function BulkRetire({ projectId, rows }: { projectId: string; rows: StaleRow[] }) {
  const isHydrated = useHydrated();
  const router = useRouter();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [results, setResults] = useState<string[]>([]);
  const [isBusy, setIsBusy] = useState(false);

  async function proposeRetiring() {
    setIsBusy(true);
    const outcome: string[] = [];
    for (const path of chosen) {
      try {
        await callApi(`/api/projects/${encodeURIComponent(projectId)}/proposals`, { method: "POST", body: { path, content: null, provenance: { reason: "stale" } } });
        outcome.push(`${path}: proposed for retirement`);
      } catch (failure) {
        outcome.push(`${path}: ${(failure as Error).message}`);
      }
    }
    setResults(outcome);
    setChosen(new Set());
    setIsBusy(false);
    router.refresh();
  }

  function toggle(path: string) {
    const next = new Set(chosen);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setChosen(next);
  }

  return (
    <section className="panel" aria-label="Propose retiring stale memories" data-testid="bulk-retire">
      <h2>Stale on this page</h2>
      <p className="muted">Each one chosen becomes its own proposal to retire it, reviewed as usual.</p>
      <ul className="plain">
        {rows.map((row) => (
          <li key={row.path}>
            <label><input type="checkbox" checked={chosen.has(row.path)} onChange={() => toggle(row.path)} disabled={!isHydrated || isBusy} /> {row.name} <span className="muted">({row.reasons})</span></label>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void proposeRetiring()} disabled={!isHydrated || isBusy || chosen.size === 0}>Propose retiring {chosen.size} memor{chosen.size === 1 ? "y" : "ies"}</button>
      {results.length > 0 && <ul role="status">{results.map((line) => <li key={line}>{line}</li>)}</ul>}
    </section>
  );
}
