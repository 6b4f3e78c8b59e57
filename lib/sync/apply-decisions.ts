import type { SyncFile, TrackedProposal } from "../member-sync/sync-answer";
import { gitBlobId } from "./git-blob-id";
import { readLocalText, type TeamDirScan } from "./scan-team-dir";
import type { SyncReport } from "./sync-report";
import { refuseOnDisk } from "./apply-store-changes";
import type { PendingProposal, SyncState } from "./sync-state";
import type { TeamFiles } from "./team-files";

const OPEN_STATES = new Set(["submitted", "in_review", "approved", "conflicted", "blocked_secret", "commit_failed"]);

export type ApplyDecisionsOptions = { state: SyncState; scan: TeamDirScan; proposals: TrackedProposal[]; files: TeamFiles; report: SyncReport };

/**
 * Settles the local files whose proposals were decided. Landed: the store's version (merged at
 * approval) replaces the member's copy, unless the member edited it again since (then that edit
 * is the next proposal). Rejected, withdrawn or superseded: the store's version comes back
 * (a rejected retirement restores the file) and the member's text is kept aside with the reason.
 */
export async function applyDecisions({ state, scan, proposals, files, report }: ApplyDecisionsOptions): Promise<void> {
  const byId = new Map(proposals.map((proposal) => [proposal.id, proposal]));
  for (const [filePath, pending] of Object.entries(state.pending)) {
    const outcome = byId.get(pending.proposalId);
    if (!outcome || OPEN_STATES.has(outcome.state) || (outcome.state === "committed" && !outcome.hasLanded)) continue;
    const tombstone = state.tombstones[filePath];
    try {
      await settle({ state, scan, files, report }, filePath, pending, outcome);
    } catch (error) {
      // This disk would not take the outcome: the proposal stays waiting, and the next sync settles it.
      refuseOnDisk(report, filePath, error, outcome.current ? "write" : "remove");
      state.pending[filePath] = pending;
      if (tombstone) state.tombstones[filePath] = tombstone;
    }
  }
}

async function settle({ state, scan, files, report }: Omit<ApplyDecisionsOptions, "proposals">, filePath: string, pending: PendingProposal, outcome: TrackedProposal): Promise<void> {
  const local = scan.files.get(filePath);
  delete state.pending[filePath];
  delete state.tombstones[filePath];
  const current = outcome.current ?? null;
  if (!local && scan.skipped.some((skipped) => skipped.path === filePath)) return settleUntouchable({ state, report }, filePath, outcome, current);
  const isUnchangedSinceSubmit = pending.isRetirement ? !local : local?.hash === pending.localHash;
  if (outcome.state === "committed") {
    if (isUnchangedSinceSubmit) await adopt({ state, scan, files }, filePath, current);
    else if (current) state.files[filePath] = { blob: current.blob, local: "" }; // edited again: proposed next, against the new base
    report.landed.push(filePath);
    return;
  }
  const keptAt = local && local.hash !== (current ? gitBlobId(current.content) : null)
    ? await files.keepAside(filePath, readLocalText(scan, local), `teammem: your proposal for ${filePath} was ${outcome.state}${outcome.rejectionReason ? `: ${outcome.rejectionReason}` : ""}. Your text, as it was in team/:`)
    : null;
  await adopt({ state, scan, files }, filePath, current);
  report.turnedDown.push({ path: filePath, state: outcome.state, reason: outcome.rejectionReason, restored: current !== null, keptAt });
}

/**
 * The decided file is in team/ but cannot be read or sent (a secret, too large, not UTF-8): the
 * member changed it since the proposal, and that text exists nowhere else. It is never replaced
 * or removed; it is recorded as differing from the store's version (so once it can travel, it is
 * proposed against that version) and reported.
 */
function settleUntouchable({ state, report }: Pick<ApplyDecisionsOptions, "state" | "report">, filePath: string, outcome: TrackedProposal, current: SyncFile | null): void {
  if (current) state.files[filePath] = { blob: current.blob, local: "" };
  else delete state.files[filePath];
  if (outcome.state === "committed") report.landed.push(filePath);
  else report.turnedDown.push({ path: filePath, state: outcome.state, reason: outcome.rejectionReason, restored: false, keptAt: null });
  report.kept.push({ path: filePath, reason: `your proposal was ${outcome.state === "committed" ? "approved" : outcome.state}, but your copy here changed since and cannot be synced (see skipped); it stays as it is` });
}

/** team/ takes the store's file (or loses it, when the store has none); the scan is kept true to the disk. */
async function adopt({ state, scan, files }: Pick<ApplyDecisionsOptions, "state" | "scan" | "files">, filePath: string, current: SyncFile | null): Promise<void> {
  if (!current) {
    await files.remove(filePath);
    delete state.files[filePath];
    scan.files.delete(filePath);
    scan.seen.delete(filePath);
    return;
  }
  const written = await files.write(filePath, current.content, current.changedAt);
  const hash = gitBlobId(current.content);
  state.files[filePath] = { blob: current.blob, local: hash };
  scan.files.set(filePath, { path: filePath, content: current.content, hash });
  if (written) scan.seen.set(filePath, { ...written, hash, problem: null });
}
