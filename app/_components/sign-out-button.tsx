"use client";

import { useState } from "react";
import { fetchApi } from "./api-client";

export function SignOutButton() {
  const [error, setError] = useState<string | null>(null);
  async function signOut() {
    try {
      await fetchApi("/api/auth/sign-out", { method: "POST", body: {} });
      window.location.assign("/sign-in");
    } catch (failure) {
      // Still signed in: going to the sign-in page would pretend otherwise.
      setError((failure as Error).message);
    }
  }
  return (
    <>
      <button className="link-button" onClick={signOut}>Sign out</button>
      {error && <span className="form-error" role="alert">{error}</span>}
    </>
  );
}
