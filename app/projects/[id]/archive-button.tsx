"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../../_components/api-client";
import { useHydrated } from "../../_components/use-hydrated";

/** Archive (after a confirmation) or unarchive a project; the page then shows its new state. */
export function ArchiveButton({ projectId, projectName, isArchived }: { projectId: string; projectName: string; isArchived: boolean }) {
  const isHydrated = useHydrated();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  async function toggle() {
    if (!isArchived && !window.confirm(`Archive ${projectName}? It leaves every list and refuses new proposals; its memories and history stay in the store.`)) return;
    setError(null);
    try {
      await callApi(`/api/projects/${encodeURIComponent(projectId)}`, { method: "PATCH", body: { archived: !isArchived } });
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <>
      <button className={isArchived ? "button" : "link-button"} type="button" onClick={toggle} disabled={!isHydrated}>
        {isArchived ? "Unarchive" : "Archive this project…"}
      </button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </>
  );
}
