"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { DiffLine } from "@/lib/memories/diff-index-repair";
import { callApi } from "../../../../_components/api-client";

type Props = { folder: string; beforeHash: string; diff: DiffLine[]; isChanged: boolean };

/** Shows the repair as a diff first; applying it writes MEMORY.md atomically on the server. */
export function RepairIndex({ folder, beforeHash, diff, isChanged }: Props) {
  const router = useRouter();
  const [isPreviewing, setPreviewing] = useState(false);
  const [isWorking, setWorking] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function apply() {
    setWorking(true);
    setError(null);
    try {
      const repair = await callApi<{ added: string[]; removed: string[] }>("/api/memory-index/repair", { method: "POST", body: { folder, expectedHash: beforeHash } });
      setResult(`Repaired: ${repair.removed.length} dangling ${repair.removed.length === 1 ? "entry" : "entries"} removed, ${repair.added.length} added.`);
      setPreviewing(false);
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setWorking(false);
    }
  }

  // Kept across the refresh that follows a repair, so the outcome stays on screen.
  if (result) return <p className="fresh" role="status" data-testid="repair-result">{result}</p>;
  if (!isChanged) return <p className="muted" data-testid="nothing-to-repair">Nothing to repair.</p>;
  return (
    <div>
      {!isPreviewing ? (
        <button className="button" onClick={() => setPreviewing(true)}>Repair MEMORY.md…</button>
      ) : (
        <>
          <p>This is what the repair changes. Nothing is written until you apply it.</p>
          <pre className="diff" data-testid="repair-diff">
            {diff.map((line, index) => (
              <div key={index} className={`diff-${line.kind}`}>
                {line.kind === "gap" ? "…" : `${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "} ${line.text}`}
              </div>
            ))}
          </pre>
          <div className="row">
            <button className="button" onClick={apply} disabled={isWorking}>{isWorking ? "Applying…" : "Apply repair"}</button>
            <button className="link-button" onClick={() => setPreviewing(false)}>Cancel</button>
          </div>
        </>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}
