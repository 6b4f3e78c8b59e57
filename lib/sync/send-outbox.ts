import type { ApiTarget } from "../client/teammem-api";
import { AppError, isAppError } from "../errors";
import { buildSyncProvenance, type SyncProvenanceContext } from "./build-sync-provenance";
import type { Withdrawal } from "./capture-local-changes";
import { cancelSyncSubmission, sendSyncProposal, withdrawSyncProposal } from "./sync-api";
import type { SyncReport } from "./sync-report";
import type { SyncState } from "./sync-state";

export type SendOutboxOptions = { target: ApiTarget; state: SyncState; report: SyncReport; provenance: SyncProvenanceContext; onSent: () => Promise<void> };

/**
 * Sends the outbox in order. An item leaves it only once the server acknowledged it (then its
 * file waits for review); its idempotency key makes a resend after a lost answer return the same
 * proposal. Unreachable server: the rest waits for the next sync. A refusal (invalid file, a
 * retirement the server will not take) is reported once and remembered with its reason: the
 * file stays as it is and is offered again only once it changes (or, deleted, comes back).
 */
export async function sendOutbox({ target, state, report, provenance, onSent }: SendOutboxOptions): Promise<void> {
  while (state.outbox.length > 0) {
    const item = state.outbox[0]!;
    try {
      const { proposal, isRevision } = await sendSyncProposal(target, { projectId: state.projectId, item, provenance: await buildSyncProvenance(item, provenance) });
      state.pending[item.path] = { proposalId: proposal.id, key: item.key, localHash: item.localHash, isRetirement: item.content === null, submittedAt: new Date().toISOString() };
      const proposed = report.proposed.find((entry) => entry.path === item.path && entry.proposalId === null);
      const kind = isRevision ? "revision" : item.content === null ? "retirement" : item.baseBlob ? "change" : "new";
      if (proposed) Object.assign(proposed, { proposalId: proposal.id, kind: isRevision ? "revision" : proposed.kind });
      else report.proposed.push({ path: item.path, kind, proposalId: proposal.id });
    } catch (error) {
      if (!isAppError(error) || isTransient(error)) throw error;
      // Reported now, once; remembered so the same change is not offered again on every sync.
      report.refused.push({ path: item.path, reason: error.message });
      state.refused[item.path] = { localHash: item.localHash, reason: error.message, refusedAt: new Date().toISOString() };
      if (item.content === null) delete state.tombstones[item.path];
    }
    state.outbox.shift();
    await onSent();
  }
}

const WITHDRAWN_BECAUSE: Record<Withdrawal["why"], string> = {
  "put back": "you put the file back as it was synced, so the change is withdrawn",
  deleted: "you deleted the file before review, so the proposal is withdrawn",
};

/** A withdrawal as the report lists it; `isPlanned` for --dry-run, which withdraws nothing. */
export function withdrawnEntry({ path: filePath, why }: Withdrawal, isPlanned = false): SyncReport["turnedDown"][number] {
  return { path: filePath, state: "withdrawn", reason: `${isPlanned ? "would be withdrawn: " : ""}${WITHDRAWN_BECAUSE[why]}`, restored: why === "put back", keptAt: null };
}

/**
 * Withdraws the proposals in review that the member's folder no longer asks for (the file put
 * back as synced, or a new file deleted). Each is settled here once the server took it back. A
 * proposal that landed meanwhile is left waiting (the next sync settles it as landed); an
 * unreachable server leaves the rest for the next sync, which finds them again from the folder.
 */
export async function withdrawProposals({ target, state, report, onSent }: Omit<SendOutboxOptions, "provenance">, withdrawals: Withdrawal[]): Promise<void> {
  for (const withdrawal of withdrawals) {
    const { path: filePath, proposalId } = withdrawal;
    try {
      await withdrawSyncProposal(target, { projectId: state.projectId, proposalId });
    } catch (error) {
      if (isAppError(error) && error.code === "CONFLICT") continue; // it landed: settled as landed next time
      if (!isAppError(error) || isTransient(error)) throw error;
      report.refused.push({ path: filePath, reason: `could not withdraw your proposal: ${error.message}` });
      continue;
    }
    delete state.pending[filePath];
    report.turnedDown.push(withdrawnEntry(withdrawal));
    await onSent();
  }
}

/**
 * Cancels on the server the keys of queued changes dropped since (see cancelWaiting): a proposal
 * one made although its answer was lost is withdrawn and reported like any withdrawal. One that
 * landed meanwhile is left to arrive as a store change.
 */
export async function cancelDroppedSubmissions({ target, state, report, onSent }: Omit<SendOutboxOptions, "provenance">): Promise<void> {
  while (state.cancelled.length > 0) {
    const dropped = state.cancelled[0]!;
    try {
      const { proposalId, state: proposalState } = await cancelSyncSubmission(target, { projectId: state.projectId, key: dropped.key });
      if (proposalId !== null && proposalState === "withdrawn") report.turnedDown.push(withdrawnEntry({ path: dropped.path, proposalId, why: dropped.why }));
    } catch (error) {
      if (!isAppError(error) || (isTransient(error) && error.code !== "CONFLICT")) throw error;
    }
    state.cancelled.shift();
    await onSent();
  }
}

function isTransient(error: AppError): boolean {
  return ["SERVER_UNAVAILABLE", "SERVER_BUSY", "STORE_UNAVAILABLE", "DATABASE_UNAVAILABLE", "INTERNAL", "CONFLICT", "UNAUTHORIZED"].includes(error.code);
}
