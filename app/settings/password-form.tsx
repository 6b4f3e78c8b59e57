"use client";

import { useState, type FormEvent } from "react";
import { fetchApi } from "../_components/api-client";
import { useHydrated } from "../_components/use-hydrated";

/** Replaces the one-time password an account starts with (better-auth's change-password). */
export function PasswordForm() {
  const isHydrated = useHydrated();
  const [message, setMessage] = useState<{ isError: boolean; text: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    if (form.get("newPassword") !== form.get("repeat")) {
      setMessage({ isError: true, text: "The two new passwords differ." });
      return;
    }
    let response: Response;
    try {
      response = await fetchApi("/api/auth/change-password", { method: "POST", body: { currentPassword: form.get("currentPassword"), newPassword: form.get("newPassword"), revokeOtherSessions: true } });
    } catch (failure) {
      setMessage({ isError: true, text: (failure as Error).message });
      return;
    }
    if (response.ok) {
      formElement.reset();
      setMessage({ isError: false, text: "Password changed; other sessions were signed out." });
      return;
    }
    const payload = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    setMessage({ isError: true, text: response.status === 400 || response.status === 401 ? (payload?.error?.message ?? "The current password is wrong, or the new one is too short (12 characters at least).") : `The server answered ${response.status}.` });
  }

  return (
    <form method="post" className="inline-form panel" onSubmit={submit} aria-label="Change password">
      <label>Current password<input name="currentPassword" type="password" autoComplete="current-password" required /></label>
      <label>New password<input name="newPassword" type="password" autoComplete="new-password" minLength={12} required /></label>
      <label>Repeat new password<input name="repeat" type="password" autoComplete="new-password" minLength={12} required /></label>
      <button className="button" type="submit" disabled={!isHydrated}>Change password</button>
      {message && <p className={message.isError ? "form-error" : "fresh"} role="status">{message.text}</p>}
    </form>
  );
}
