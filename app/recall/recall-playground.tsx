"use client";

import { useState, type FormEvent } from "react";
import { useHydrated } from "../_components/use-hydrated";
import { callApi } from "../_components/api-client";

type Selected = { file: string; age: string; type: string | null; description: string | null; reason?: string; injection: string };
type Dropped = { file: string; reason: string };
type Result = { selector: string; skipReason?: string; fallbackReason?: string; latencyMs: number; manifest: string; selected: Selected[]; dropped: Dropped[] };

const DROP_REASONS: Record<string, string> = {
  "already-surfaced": "already shown in this conversation",
  "over-limit": "outside the newest 200",
  "unknown-name": "the model named a file that does not exist",
  duplicate: "named twice",
  "over-five": "more than five",
  "tool-in-use": "usage docs for a tool already in use",
  unreadable: "could not be read",
};

export function RecallPlayground({ projects }: { projects: { id: string; name: string }[] }) {
  const isHydrated = useHydrated();
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const list = (name: string) => String(form.get(name) ?? "").split(",").map((item) => item.trim()).filter(Boolean);
    setBusy(true);
    setError(null);
    try {
      setResult(
        await callApi<Result>(`/api/projects/${encodeURIComponent(String(form.get("project")))}/recall`, {
          method: "POST",
          // A try, not an agent's prompt: logged apart from what agents were given.
          body: { query: form.get("query"), recentTools: list("recentTools"), alreadySurfaced: list("alreadySurfaced"), allowSingleWord: form.get("allowSingleWord") === "on", playground: true },
        }),
      );
    } catch (failure) {
      setError((failure as Error).message);
    }
    setBusy(false);
  }

  return (
    <>
      <form method="post" className="panel form" onSubmit={submit} aria-label="Recall">
        <label>Project<select name="project">{projects.map((project) => <option key={project.id} value={project.id}>{project.name}</option>)}</select></label>
        <label>Prompt<textarea name="query" required rows={3} maxLength={4000} placeholder="e.g. the payment tests are flaky against the sandbox, what should I do?" /></label>
        <label>Recently used tools (comma-separated)<input name="recentTools" placeholder="Bash, Grep" /></label>
        <label>Already surfaced files (comma-separated)<input name="alreadySurfaced" placeholder="feedback_real_db_in_tests.md" /></label>
        <label style={{ flexDirection: "row", alignItems: "center", gap: "0.4rem" }}><input type="checkbox" name="allowSingleWord" /> also answer one-word prompts (Claude Code skips them)</label>
        <button type="submit" disabled={isBusy || !isHydrated}>{isBusy ? "Selecting…" : "Recall"}</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
      {result && <RecallResultView result={result} />}
    </>
  );
}

function RecallResultView({ result }: { result: Result }) {
  return (
    <section data-testid="recall-result">
      <p>
        <strong>{result.selector === "none" ? "Nothing asked" : `Selected by the ${result.selector === "model" ? "model" : "local ranker"}`}</strong>
        {" "}in {Math.round(result.latencyMs)} ms{result.skipReason === "single-word-query" ? ": one-word prompts get no recall." : ""}
        {result.skipReason === "no-memories" ? ": the project has no memories." : ""}
      </p>
      {result.fallbackReason && <p className="panel error">{result.fallbackReason}</p>}
      <h2>Selected ({result.selected.length})</h2>
      {result.selected.length === 0 ? (
        <p className="muted">No memory is relevant enough; the agent gets none.</p>
      ) : (
        result.selected.map((memory) => (
          <details key={memory.file} className="panel" data-testid="recalled-memory" open>
            <summary><code>{memory.file}</code> · {memory.age}{memory.reason ? ` · ${memory.reason}` : ""}</summary>
            <p className="muted">{memory.description}</p>
            <pre className="injection">{memory.injection}</pre>
          </details>
        ))
      )}
      {result.dropped.length > 0 && (
        <>
          <h2>Dropped</h2>
          <ul>{result.dropped.map((dropped, index) => <li key={index}><code>{dropped.file}</code>: {DROP_REASONS[dropped.reason] ?? dropped.reason}</li>)}</ul>
        </>
      )}
      <h2>Manifest as the model sees it</h2>
      <pre className="injection" data-testid="manifest">{result.manifest || "(empty)"}</pre>
    </section>
  );
}
