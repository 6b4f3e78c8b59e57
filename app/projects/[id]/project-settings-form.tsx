"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { callApi } from "../../_components/api-client";
import { useHydrated } from "../../_components/use-hydrated";
import { splitLines } from "../split-lines";

type Settings = { id: string; name: string; repoUrls: string[]; allowSelfApproval: boolean; codeRepo: string | null; staleAfterDays: Record<AgeType, number | null> };

type AgeType = "project" | "reference" | "feedback" | "untyped";
const AGE_TYPES: { type: AgeType; label: string }[] = [
  { type: "project", label: "project notes" },
  { type: "reference", label: "references" },
  { type: "feedback", label: "feedback rules" },
  { type: "untyped", label: "memories without a type" },
];

/** Blank means "never old"; anything else is sent as typed and the server says what is wrong with it. */
function readAgeLimits(form: FormData): Record<AgeType, number | null> {
  return Object.fromEntries(AGE_TYPES.map(({ type }) => {
    const text = String(form.get(`staleAfterDays.${type}`) ?? "").trim();
    return [type, text === "" ? null : Number(text)];
  })) as Record<AgeType, number | null>;
}

/** Rename, repository URLs, code repository and self-approval: one PATCH; the store records name and URLs. */
export function ProjectSettingsForm({ project }: { project: Settings }) {
  const isHydrated = useHydrated();
  const router = useRouter();
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    setStatus(null);
    try {
      const result = await callApi<{ project: Settings }>(`/api/projects/${encodeURIComponent(project.id)}`, {
        method: "PATCH",
        body: { name: form.get("name"), repoUrls: splitLines(String(form.get("repoUrls") ?? "")), allowSelfApproval: form.get("allowSelfApproval") === "on", codeRepo: String(form.get("codeRepo") ?? "").trim() || null, staleAfterDays: readAgeLimits(form) },
      });
      setStatus(`Saved. Repositories: ${result.project.repoUrls.join(", ") || "none"}.`);
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  async function checkNow() {
    setError(null);
    setStatus("Checking…");
    try {
      const result = await callApi<{ codeCommit: string | null; codeRepoProblem: string | null; counts: Record<string, number> }>(`/api/projects/${encodeURIComponent(project.id)}/freshness`, { method: "POST" });
      const counts = `${result.counts.stale ?? 0} stale, ${result.counts.aging ?? 0} aging, ${result.counts.fresh ?? 0} fresh`;
      setStatus(result.codeCommit ? `Checked against code commit ${result.codeCommit.slice(0, 7)}: ${counts}.` : `Code not checked (${result.codeRepoProblem ?? "unknown reason"}): ${counts}.`);
      router.refresh();
    } catch (failure) {
      setStatus(null);
      setError((failure as Error).message);
    }
  }

  return (
    <form method="post" className="panel form" onSubmit={save} aria-label="Project settings">
      <label>Name<input name="name" required maxLength={200} defaultValue={project.name} /></label>
      <label>
        Repository URLs, one per line (teammem matches a checkout&apos;s origin against these)
        <textarea name="repoUrls" rows={3} defaultValue={project.repoUrls.join("\n")} />
      </label>
      <label>
        Code repository (a git URL or a path on the server): staleness checks compare the memories&apos; cited files and symbols with its default branch
        <input name="codeRepo" maxLength={500} defaultValue={project.codeRepo ?? ""} placeholder="https://github.com/acme/checkout.git" />
      </label>
      <fieldset>
        <legend>Staleness: a memory counts as old after this many days since its last change (it is &ldquo;aging&rdquo; from half of it); blank means never</legend>
        {AGE_TYPES.map(({ type, label }) => (
          <label key={type}>
            {label}
            <input name={`staleAfterDays.${type}`} type="number" min={1} max={3650} step={1} defaultValue={project.staleAfterDays[type] ?? ""} placeholder="never" />
          </label>
        ))}
      </fieldset>
      <label style={{ flexDirection: "row", alignItems: "center", gap: "0.4rem" }}>
        <input type="checkbox" name="allowSelfApproval" defaultChecked={project.allowSelfApproval} /> Allow a lead to approve their own proposals (for a team with one lead)
      </label>
      <div><button type="submit" disabled={!isHydrated}>Save settings</button></div>
      <div>
        <button type="button" disabled={!isHydrated} onClick={() => void checkNow()}>Check the code now</button>{" "}
        <span className="muted">Fetches the code repository and checks every memory&apos;s citations again.</span>
      </div>
      {status && <p className="muted" role="status">{status}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}
