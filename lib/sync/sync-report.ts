export type SyncMode = "unchanged" | "changes" | "full" | "offline";

export type SyncReport = {
  projectId: string;
  memoryDir: string;
  teamDir: string;
  /** The store commit team/ now reflects (null offline or for an empty store). */
  head: string | null;
  mode: SyncMode;
  isDryRun: boolean;
  /** Why the saved state could not be used (a full comparison ran instead), or null. */
  stateProblem: string | null;
  pulled: { added: string[]; changed: string[]; removed: string[] };
  /** Local changes that became proposals in this run (or would, with --dry-run). */
  proposed: {
    path: string;
    /** `revision`: an edit of a file whose proposal was still open became its next revision. */
    kind: "new" | "change" | "retirement" | "revision";
    proposalId: string | null;
    /**
     * No sync state told what this machine last had: the file differed from the store's, so it
     * is proposed as an edit of the store's current version (the reviewer sees the difference).
     */
    isAgainstStoreHead?: boolean;
  }[];
  /** Local changes waiting for review: never overwritten by a pull. */
  waiting: { path: string; state: string; storeChangedToo: boolean }[];
  /** Proposals decided since the last sync that did not land as proposed. */
  turnedDown: { path: string; state: string; reason: string | null; restored: boolean; keptAt: string | null }[];
  /** Proposals that landed in the store since the last sync. */
  landed: string[];
  /** Local files left as they are although the store changed them, and why. */
  kept: { path: string; reason: string }[];
  /** Local files that did not travel (size, secret, name, link), and why. */
  skipped: { path: string; reason: string }[];
  /** Proposals the server refused, with its message. */
  refused: { path: string; reason: string }[];
  /** Changes still waiting in the outbox to be sent (0 with --dry-run, which queues nothing: what it would send is under proposed). */
  outbox: number;
  /** Set when the server could not be reached. */
  offlineReason: string | null;
};

export const SYNC_EXIT = { inStep: 0, attention: 1, unreachable: 2 } as const;

/** 0 in step, 1 something needs attention (a proposal made now waits for review too), 2 the server could not be reached. */
export function syncExitCode(report: SyncReport): number {
  if (report.offlineReason) return SYNC_EXIT.unreachable;
  const needsAttention = report.proposed.length + report.waiting.length + report.turnedDown.length + report.kept.length + report.skipped.length + report.refused.length + report.outbox > 0;
  return needsAttention ? SYNC_EXIT.attention : SYNC_EXIT.inStep;
}

export function emptyReport(fields: Pick<SyncReport, "projectId" | "memoryDir" | "teamDir" | "isDryRun" | "stateProblem">): SyncReport {
  return { ...fields, head: null, mode: "unchanged", pulled: { added: [], changed: [], removed: [] }, proposed: [], waiting: [], turnedDown: [], landed: [], kept: [], skipped: [], refused: [], outbox: 0, offlineReason: null };
}
