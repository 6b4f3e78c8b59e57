"use client";

import { useState, type FormEvent } from "react";
import { useHydrated } from "../_components/use-hydrated";
import { callApi } from "../_components/api-client";

type Token = { id: string; name: string; prefix: string; projectIds: string[]; createdAt: string; lastUsedAt: string | null; expiresAt: string | null; revokedAt: string | null };

/** The API's bounds for expiresInDays (POST /api/tokens); empty means a token that never expires. */
const MAX_EXPIRY_DAYS = 3650;
const EXPIRY_PROBLEM = `Expires in days: a whole number from 1 to ${MAX_EXPIRY_DAYS}, or leave it empty for a token that never expires.`;

/** The field as the API takes it: null when left empty, undefined when it is no valid number of days. */
function readExpiresInDays(value: FormDataEntryValue | null): number | null | undefined {
  const text = String(value ?? "").trim();
  if (text === "") return null;
  const days = Number(text);
  return Number.isInteger(days) && days >= 1 && days <= MAX_EXPIRY_DAYS ? days : undefined;
}

type TokenManagerProps = {
  initialTokens: Token[];
  /** The projects a token may be scoped to, by the API's rule (an admin: every project). */
  projectIds: string[];
  /** What to say when projectIds is empty: a token needs at least one project. */
  noProjectsMessage: string;
};

export function TokenManager({ initialTokens, projectIds, noProjectsMessage }: TokenManagerProps) {
  const isHydrated = useHydrated();
  const [tokens, setTokens] = useState(initialTokens);
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // 0 once meant "never" here while the API refuses it: a token asked to be short-lived never expired.
    const expiresInDays = readExpiresInDays(form.get("expiresInDays"));
    if (expiresInDays === undefined) return setError(EXPIRY_PROBLEM);
    setError(null);
    try {
      const result = await callApi<{ token: string; summary: Token }>("/api/tokens", {
        method: "POST",
        body: { name: form.get("name"), projectIds: form.getAll("projectIds"), expiresInDays },
      });
      setCreated(result.token);
      setTokens([result.summary, ...tokens]);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  async function revoke(id: string) {
    try {
      const result = await callApi<{ token: Token }>(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
      setTokens(tokens.map((token) => (token.id === id ? result.token : token)));
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <>
      {created && (
        <div className="secret-once" data-testid="new-token">
          <strong>Copy this token now; it is not shown again.</strong>
          <div><code>{created}</code></div>
          <div className="muted">Use it as <code>TEAMMEM_TOKEN</code> or with <code>npx teammem login</code>.</div>
        </div>
      )}
      {projectIds.length === 0 ? (
        <p className="muted" data-testid="no-token-projects">{noProjectsMessage}</p>
      ) : (
        // noValidate: the form says what is wrong itself, in words naming the field, as the API does.
        <form method="post" className="inline-form panel" onSubmit={create} aria-label="Create token" noValidate>
          <label>Name<input name="name" required maxLength={100} placeholder="laptop CLI" /></label>
          <fieldset className="inline-form" style={{ border: 0, padding: 0 }}>
            {projectIds.map((projectId) => (
              <label key={projectId} style={{ flexDirection: "row", alignItems: "center" }}>
                <input type="checkbox" name="projectIds" value={projectId} defaultChecked /> {projectId}
              </label>
            ))}
          </fieldset>
          <label>Expires in days (empty: never)<input name="expiresInDays" type="number" min={1} max={MAX_EXPIRY_DAYS} step={1} defaultValue={90} /></label>
          <button className="button" type="submit" disabled={!isHydrated}>Create token</button>
        </form>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <table data-testid="token-table">
          <thead><tr><th>Name</th><th>Token</th><th>Projects</th><th>Last used</th><th>Expires</th><th>Status</th><th /></tr></thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td><code>{token.prefix}…</code></td>
                <td>{token.projectIds.join(", ")}</td>
                <td>{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : "never"}</td>
                <td data-testid="token-expires">{token.expiresAt ? new Date(token.expiresAt).toISOString().slice(0, 10) : "never"}</td>
                <td>{token.revokedAt ? "revoked" : token.expiresAt && new Date(token.expiresAt) < new Date() ? "expired" : "active"}</td>
                <td>{!token.revokedAt && <button className="link-button" onClick={() => revoke(token.id)}>Revoke</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
