"use client";

import { useState, type FormEvent } from "react";
import { useHydrated } from "../_components/use-hydrated";
import { callApi } from "../_components/api-client";

type Member = { userId: string; email: string; name: string; role: string };

export function MemberManager({ projectId, initialMembers }: { projectId: string; initialMembers: Member[] }) {
  const isHydrated = useHydrated();
  const [members, setMembers] = useState(initialMembers);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/projects/${encodeURIComponent(projectId)}/members`;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      setMembers((await callApi<{ members: Member[] }>(base, { method: "POST", body: { email: form.get("email"), role: form.get("role") } })).members);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  async function remove(userId: string) {
    setError(null);
    try {
      await callApi(`${base}/${encodeURIComponent(userId)}`, { method: "DELETE" });
      setMembers(members.filter((member) => member.userId !== userId));
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <>
      <table>
        <thead><tr><th>Name</th><th>Email</th><th>Role</th><th /></tr></thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.userId}>
              <td>{member.name}</td><td>{member.email}</td><td>{member.role}</td>
              <td><button className="link-button" onClick={() => remove(member.userId)}>Remove</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="post" className="inline-form" onSubmit={add} style={{ marginTop: "0.5rem" }} aria-label={`Add member to ${projectId}`}>
        <label>Email<input name="email" type="email" required /></label>
        <label>Role<select name="role" defaultValue="member"><option>viewer</option><option>member</option><option>lead</option></select></label>
        <button className="button" type="submit" disabled={!isHydrated}>Add or change role</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </>
  );
}
