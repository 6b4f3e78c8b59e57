import path from "node:path";
import type { ApiTarget } from "../client/teammem-api";
import type { Config } from "../config";
import { findTeamMemoryDir } from "./find-team-memory-dir";
import { fetchSyncAnswer } from "./sync-api";
import { proposalIdsToAsk, readSyncState } from "./sync-state";

export type SyncStatus = {
  teamDir: string;
  projectId: string | null;
  syncedCommit: string | null;
  syncedAt: string | null;
  head: string | null;
  /** What the store gained since the last sync: files changed or added, and removed. */
  storeGained: { changed: number; removed: number } | null;
  proposals: { path: string; proposalId: string; state: string; reason: string | null; isRetirement: boolean; hasLanded: boolean }[];
  outbox: { path: string; isRetirement: boolean }[];
  tombstones: string[];
  /** Local changes the server refused (reported once by the sync that sent them), with the reason. */
  refused: { path: string; isRetirement: boolean; reason: string }[];
  /** Set when the server could not be asked (the local part is still shown). */
  serverProblem: string | null;
};

export type ReadSyncStatusOptions = {
  config: Pick<Config, "claudeCodeEnv" | "homeDir">;
  target: ApiTarget;
  cwd: string;
  clientVersion: string;
  /** `--project ID`: ask about this project (a checkout never synced with it: what its store holds). */
  projectId?: string | null;
};

/**
 * `teammem status`: the sync state on this machine and, from the server (a peek that records
 * nothing and moves nothing), where each waiting proposal stands and what the store gained.
 */
export async function readSyncStatus({ config, target, cwd, clientVersion, projectId = null }: ReadSyncStatusOptions): Promise<SyncStatus> {
  const location = await findTeamMemoryDir({ cwd: path.resolve(cwd), env: config.claudeCodeEnv, homeDir: config.homeDir });
  const saved = (await readSyncState(location.memoryDir)).state;
  // A state for another project (or server) says nothing about the one asked for.
  const state = saved && (projectId === null || saved.projectId === projectId) && saved.server === target.server ? saved : null;
  const status: SyncStatus = {
    teamDir: location.teamDir,
    projectId: projectId ?? state?.projectId ?? null,
    syncedCommit: state?.syncedCommit ?? null,
    syncedAt: state?.syncedAt ?? null,
    head: null,
    storeGained: null,
    proposals: Object.entries(state?.pending ?? {}).map(([filePath, pending]) => ({ path: filePath, proposalId: pending.proposalId, state: "submitted", reason: null, isRetirement: pending.isRetirement, hasLanded: false })),
    outbox: (state?.outbox ?? []).map((item) => ({ path: item.path, isRetirement: item.content === null })),
    tombstones: Object.keys(state?.tombstones ?? {}),
    refused: Object.entries(state?.refused ?? {}).map(([filePath, refusal]) => ({ path: filePath, isRetirement: refusal.localHash === null, reason: refusal.reason })),
    serverProblem: null,
  };
  if (!status.projectId) return { ...status, serverProblem: "this checkout was never synced: run teammem sync (or pass --project ID)" };
  try {
    const answer = await fetchSyncAnswer(target, { projectId: status.projectId, since: state?.syncedCommit ?? null, proposalIds: state ? proposalIdsToAsk(state, { isAdvancing: false }) : [], clientVersion, isPeek: true, pageSize: 1, isFirstPageOnly: true });
    // One file per page: the page count is the number of changed files, without their contents.
    const outcomes = new Map(answer.proposals.map((proposal) => [proposal.id, proposal]));
    for (const proposal of status.proposals) {
      const outcome = outcomes.get(proposal.proposalId);
      if (outcome) Object.assign(proposal, { state: outcome.state, reason: outcome.rejectionReason, hasLanded: outcome.hasLanded });
    }
    return { ...status, head: answer.head, storeGained: answer.isUnchanged ? { changed: 0, removed: 0 } : { changed: answer.pageCount > 1 ? answer.pageCount : answer.files.length, removed: answer.removed.length } };
  } catch (error) {
    return { ...status, serverProblem: error instanceof Error ? error.message : "the server could not be asked" };
  }
}
