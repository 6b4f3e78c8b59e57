"use client";

import { useState, type FormEvent } from "react";
import { fetchApi } from "../_components/api-client";
import { useHydrated } from "../_components/use-hydrated";

export function SignInForm({ returnTo }: { returnTo: string }) {
  const isHydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    try {
      const response = await fetchApi("/api/auth/sign-in/email", { method: "POST", body: { email: form.get("email"), password: form.get("password") } });
      if (response.ok) {
        window.location.assign(returnTo);
        return;
      }
      const retryAfter = response.headers.get("x-retry-after") ?? response.headers.get("retry-after");
      setError(
        response.status === 429
          ? `Too many attempts. Wait ${retryAfter ? `${retryAfter} seconds` : "a minute"} and try again.`
          : "Wrong email or password.",
      );
    } catch (failure) {
      setError((failure as Error).message);
    }
    setBusy(false);
  }

  return (
    <form method="post" className="panel form" onSubmit={submit}>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && <p className="form-error" role="alert">{error}</p>}
      <button type="submit" disabled={isBusy || !isHydrated}>{isBusy ? "Signing in…" : "Sign in"}</button>
    </form>
  );
}
