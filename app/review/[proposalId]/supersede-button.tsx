"use client";

import { useState } from "react";
import { callApi } from "../../_components/api-client";

/** Turns the proposal into an edit of an existing near-duplicate, after one confirmation. */
export function SupersedeButton({ projectId, proposalId, targetPath }: { projectId: string; proposalId: string; targetPath: string }) {
  const [error, setError] = useState<string | null>(null);
  async function supersede() {
    if (!window.confirm(`Make this proposal an edit of ${targetPath}? Approving it will then replace that memory instead of adding a second one.`)) return;
    try {
      await callApi(`/api/projects/${encodeURIComponent(projectId)}/proposals/${encodeURIComponent(proposalId)}/supersede`, { method: "POST", body: { targetPath } });
      window.location.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <>
      {" "}<button className="link-button" onClick={supersede}>supersede it</button>
      {error && <span className="form-error"> {error}</span>}
    </>
  );
}
