import path from "node:path";
import type { ApiTarget } from "../client/teammem-api";
import type { Config } from "../config";
import { parseJsonOrNull } from "../parse-json";
import { findTeamMemoryDir } from "./find-team-memory-dir";
import { findUnsyncedChanges, type UnsyncedChanges } from "./find-unsynced-changes";
import { peekStoreGains, type StoreGains } from "./peek-store-gains";
import { parseSyncState, proposalIdsToAsk, readSyncStateText } from "./sync-state";

export type SyncStatus = {
  teamDir: string;
  projectId: string | null;
  syncedCommit: string | null;
  syncedAt: string | null;
  head: string | null;
  /** What the store gained since the last sync: memories changed or added, and removed (MEMORY.md, the index, is not counted). */
  storeGained: StoreGains | null;
  /** What changed in team/ since the last sync and waits for the next one; null without a sync state to compare with. */
  local: UnsyncedChanges | null;
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
 * `teammem status`: the sync state on this machine, what changed in team/ since the last sync
 * and, from the server (a peek that records nothing and moves nothing), where each waiting
 * proposal stands and what the store gained.
 */
export async function readSyncStatus({ config, target, cwd, clientVersion, projectId = null }: ReadSyncStatusOptions): Promise<SyncStatus> {
  const location = await findTeamMemoryDir({ cwd: path.resolve(cwd), env: config.claudeCodeEnv, homeDir: config.homeDir });
  const text = await readSyncStateText(location.memoryDir);
  const value = text === null ? null : parseJsonOrNull(text);
  const saved = parseSyncState(text, value);
  // A state for another project (or server) says nothing about the one asked for.
  const state = saved.state && (projectId === null || saved.state.projectId === projectId) && saved.state.server === target.server ? saved.state : null;
  // A state cut short has lost its per-file records: the next sync compares in full, so no file can be called changed here.
  const isComparable = state !== null && text !== null && saved.problem === null;
  const status: SyncStatus = {
    teamDir: location.teamDir,
    projectId: projectId ?? state?.projectId ?? null,
    syncedCommit: state?.syncedCommit ?? null,
    syncedAt: state?.syncedAt ?? null,
    head: null,
    storeGained: null,
    local: isComparable ? await findUnsyncedChanges({ teamDir: location.teamDir, state, stored: { text, value } }) : null,
    proposals: Object.entries(state?.pending ?? {}).map(([filePath, pending]) => ({ path: filePath, proposalId: pending.proposalId, state: "submitted", reason: null, isRetirement: pending.isRetirement, hasLanded: false })),
    outbox: (state?.outbox ?? []).map((item) => ({ path: item.path, isRetirement: item.content === null })),
    tombstones: Object.keys(state?.tombstones ?? {}),
    refused: Object.entries(state?.refused ?? {}).map(([filePath, refusal]) => ({ path: filePath, isRetirement: refusal.localHash === null, reason: refusal.reason })),
    serverProblem: null,
  };
  if (!status.projectId) return { ...status, serverProblem: "this checkout was never synced: run teammem sync (or pass --project ID)" };
  try {
    const { answer, gains } = await peekStoreGains(target, { projectId: status.projectId, since: state?.syncedCommit ?? null, proposalIds: state ? proposalIdsToAsk(state, { isAdvancing: false }) : [], clientVersion });
    const outcomes = new Map(answer.proposals.map((proposal) => [proposal.id, proposal]));
    for (const proposal of status.proposals) {
      const outcome = outcomes.get(proposal.proposalId);
      if (outcome) Object.assign(proposal, { state: outcome.state, reason: outcome.rejectionReason, hasLanded: outcome.hasLanded });
    }
    // Without a state the server names the member's open sync proposals itself: this checkout's still wait.
    const listed = new Set(status.proposals.map((proposal) => proposal.proposalId));
    for (const outcome of answer.proposals) {
      if (!listed.has(outcome.id) && outcome.checkout === location.checkoutRoot) status.proposals.push({ path: outcome.path, proposalId: outcome.id, state: outcome.state, reason: outcome.rejectionReason, isRetirement: outcome.isRetirement, hasLanded: outcome.hasLanded });
    }
    return { ...status, head: answer.head, storeGained: gains };
  } catch (error) {
    return { ...status, serverProblem: error instanceof Error ? error.message : "the server could not be asked" };
  }
}
