"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { callApi } from "../../_components/api-client";
import { useHydrated } from "../../_components/use-hydrated";

/** A project without a lead cannot review anything: name one by the email of an existing account. */
export function FirstLeadForm({ projectId }: { projectId: string }) {
  const isHydrated = useHydrated();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      await callApi(`/api/projects/${encodeURIComponent(projectId)}/members`, { method: "POST", body: { email: form.get("email"), role: "lead" } });
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <form method="post" className="inline-form panel" onSubmit={add} aria-label="Add the first lead">
      <label>Lead&apos;s email<input name="email" type="email" required /></label>
      <button className="button" type="submit" disabled={!isHydrated}>Make lead</button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}
