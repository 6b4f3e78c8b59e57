"use client";

import { useState, type FormEvent } from "react";
import { useHydrated } from "../_components/use-hydrated";
import { callApi } from "../_components/api-client";

type User = { id: string; email: string; name: string; isAdmin: boolean };

export function UserAdmin({ initialUsers }: { initialUsers: User[] }) {
  const isHydrated = useHydrated();
  const [users, setUsers] = useState(initialUsers);
  const [issued, setIssued] = useState<{ email: string; oneTimePassword: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      const result = await callApi<{ userId: string; email: string; oneTimePassword: string }>("/api/admin/users", {
        method: "POST",
        body: { email: form.get("email"), name: form.get("name"), isAdmin: form.get("isAdmin") === "on" },
      });
      setIssued({ email: result.email, oneTimePassword: result.oneTimePassword });
      setUsers([...users, { id: result.userId, email: result.email, name: String(form.get("name")), isAdmin: form.get("isAdmin") === "on" }]);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <>
      {issued && (
        <div className="secret-once">
          <strong>One-time password for {issued.email}; shown once.</strong> <code>{issued.oneTimePassword}</code>
        </div>
      )}
      <table>
        <thead><tr><th>Name</th><th>Email</th><th>Admin</th></tr></thead>
        <tbody>{users.map((user) => <tr key={user.id}><td>{user.name}</td><td>{user.email}</td><td>{user.isAdmin ? "yes" : ""}</td></tr>)}</tbody>
      </table>
      <form method="post" className="inline-form" onSubmit={create} style={{ marginTop: "0.5rem" }} aria-label="Create account">
        <label>Name<input name="name" required maxLength={100} /></label>
        <label>Email<input name="email" type="email" required /></label>
        <label style={{ flexDirection: "row", alignItems: "center" }}><input type="checkbox" name="isAdmin" /> admin</label>
        <button className="button" type="submit" disabled={!isHydrated}>Create account</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </>
  );
}
