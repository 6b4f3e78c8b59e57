"use client";

import { useState, type FormEvent } from "react";
import { callApi } from "../_components/api-client";
import { useHydrated } from "../_components/use-hydrated";
import { splitLines } from "./split-lines";

/** An admin names a project, its repositories and (optionally) its first lead; then lands on its settings. */
export function NewProjectForm() {
  const isHydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const id = String(form.get("id") ?? "").trim();
    const leadEmail = String(form.get("leadEmail") ?? "").trim();
    setError(null);
    setSaving(true);
    try {
      const result = await callApi<{ project: { id: string } }>("/api/projects", {
        method: "POST",
        body: {
          name: form.get("name"),
          ...(id ? { id } : {}),
          repoUrls: splitLines(String(form.get("repoUrls") ?? "")),
          ...(leadEmail ? { leadEmail } : {}),
          allowSelfApproval: form.get("allowSelfApproval") === "on",
        },
      });
      window.location.assign(`/projects/${encodeURIComponent(result.project.id)}`);
    } catch (failure) {
      setError((failure as Error).message);
      setSaving(false);
    }
  }

  return (
    <form method="post" className="panel form" onSubmit={create} aria-label="New project">
      <div className="inline-form">
        <label>Name<input name="name" required maxLength={200} placeholder="Acme Checkout" /></label>
        <label>Id (optional)<input name="id" maxLength={100} pattern="[a-z0-9][a-z0-9.\-]*" placeholder="from the first repository" /></label>
        <label>First lead&apos;s email (optional)<input name="leadEmail" type="email" placeholder="lead@example.com" /></label>
      </div>
      <label>
        Repository URLs, one per line (any clone URL; stored as host/path)
        <textarea name="repoUrls" rows={2} placeholder={"git@github.com:acme/checkout.git"} />
      </label>
      <label style={{ flexDirection: "row", alignItems: "center", gap: "0.4rem" }}>
        <input type="checkbox" name="allowSelfApproval" /> Allow a lead to approve their own proposals (for a team with one lead)
      </label>
      <div>
        <button className="button" type="submit" disabled={!isHydrated || isSaving}>{isSaving ? "Creating…" : "Create project"}</button>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}
