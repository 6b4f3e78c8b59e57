import type { SyncAnswer } from "../member-sync/sync-answer";
import { isSkippedHere, type TeamDirScan } from "./scan-team-dir";
import type { SyncState } from "./sync-state";

const OPEN_STATES = new Set(["submitted", "in_review", "approved", "conflicted", "blocked_secret", "commit_failed"]);

/**
 * A full comparison's answer names the member's open sync proposals, asked about or not. A
 * retirement of theirs made in this checkout that this state does not know (the state was lost)
 * and whose file is not in team/ waits again here, with its tombstone: the deleted
 * memory is not written back while its retirement is in review, `status` lists it, and its
 * outcome is settled as any other (rejected: the file comes back).
 */
export function adoptOpenRetirements(state: SyncState, scan: TeamDirScan, answer: SyncAnswer, checkoutRoot: string | null): void {
  if (!answer.full || checkoutRoot === null) return;
  const known = new Set(Object.values(state.pending).map((pending) => pending.proposalId));
  const skipped = new Set(scan.skipped.map((file) => file.path));
  const storeFiles = new Map(answer.files.map((file) => [file.path, file]));
  for (const proposal of answer.proposals) {
    // Made in this checkout: the member's other machines (and checkouts) hold their own copies.
    if (!proposal.isRetirement || !OPEN_STATES.has(proposal.state) || known.has(proposal.id) || proposal.checkout !== checkoutRoot) continue;
    const filePath = proposal.path;
    if (state.pending[filePath] || state.outbox.some((item) => item.path === filePath)) continue;
    if (scan.files.has(filePath) || isSkippedHere(filePath, skipped)) continue; // back in team/: the next steps see it
    const storeFile = storeFiles.get(filePath);
    if (!storeFile) continue; // retired already: nothing to keep from being written
    state.pending[filePath] = { proposalId: proposal.id, key: proposal.id, localHash: null, isRetirement: true, submittedAt: new Date().toISOString() };
    state.tombstones[filePath] = { deletedAt: new Date().toISOString(), blob: storeFile.blob };
    state.files[filePath] ??= { blob: storeFile.blob, local: "" };
  }
}
