import { randomBytes } from "node:crypto";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { gitBlobId } from "./git-blob-id";
import { isSkippedHere, readTravellingContent, type TeamDirScan } from "./scan-team-dir";
import type { SyncReport } from "./sync-report";
import type { OutboxItem, SyncState } from "./sync-state";

export type CaptureOptions = {
  state: SyncState;
  scan: TeamDirScan;
  /** What the store holds now; null offline (then every difference from the last sync is a change). */
  answer: SyncAnswer | null;
  report: SyncReport;
};

/** A proposal in review that the member's folder no longer asks for: withdrawn when the server is reached. */
export type Withdrawal = { path: string; proposalId: string; why: "put back" | "deleted" };

/**
 * Turns every difference between team/ and what the last sync wrote into an outbox item (a
 * proposal to be), before anything on disk is replaced: new and changed files, and deletions
 * (which leave a tombstone so no pull revives the file). A file already equal to the store's
 * incoming version is simply adopted: that is how a sync killed after writing files converges
 * without proposing them back.
 *
 * What waits (queued or in review) follows the folder: a file put back as it was synced cancels
 * what waits for it, a file deleted while its change waits turns that change into a retirement
 * (or, new to the store, withdraws it). Returns the proposals in review to withdraw.
 */
export function captureLocalChanges({ state, scan, answer, report }: CaptureOptions): Withdrawal[] {
  const incoming = new Map((answer?.files ?? []).map((file) => [file.path, file]));
  const removedInStore = new Set(answer?.removed ?? []);
  const skipped = new Set(scan.skipped.map((file) => file.path));
  const withdrawals: Withdrawal[] = [];
  forgetOutdatedRefusals(state, scan);
  for (const file of scan.files.values()) {
    const known = state.files[file.path];
    const queued = lastQueued(state, file.path);
    const waiting = queued ? queued.localHash : state.pending[file.path]?.localHash;
    // As the last sync left it, or exactly the store's text (its blob id is the file's): whatever
    // waits for this file (an edit since undone, a deletion since put back) no longer stands.
    if (known && (known.local === file.hash || known.blob === file.hash)) {
      if (known.local !== file.hash) state.files[file.path] = { blob: known.blob, local: file.hash };
      if (waiting !== undefined || state.tombstones[file.path]) cancelWaiting(state, file.path, "put back", withdrawals);
      continue;
    }
    if (waiting === file.hash) continue; // already on its way, unchanged since
    if (state.refused[file.path]?.localHash === file.hash) continue; // refused once, reported then
    const storeVersion = incoming.get(file.path);
    if (!waiting && storeVersion && gitBlobId(storeVersion.content) === file.hash) {
      state.files[file.path] = { blob: storeVersion.blob, local: file.hash };
      if (waiting === null) cancelWaiting(state, file.path, "put back", withdrawals); // a deletion, undone as the store has it now
      continue;
    }
    const content = readTravellingContent(scan, file);
    if (content === null) continue; // it cannot travel after all: listed with the reason
    // No record of this file (a lost state, a full comparison) but the store has it: an edit of
    // the store's current version, so the reviewer sees a normal diff. It may also be an older
    // copy the member never touched; the review shows that too, and nothing is overwritten.
    const isAgainstStoreHead = !known && !waiting && storeVersion !== undefined;
    const baseBlob = known?.blob || (isAgainstStoreHead ? storeVersion.blob : null);
    enqueue(state, report, { path: file.path, content, baseBlob, localHash: gitBlobId(content) }, baseBlob ? "change" : "new", isAgainstStoreHead);
    delete state.tombstones[file.path]; // back with other text: its retirement becomes this change, and deleting it again is seen
  }
  // Not gone: a file listed as skipped, or under a folder that was (a folder swapped for a link,
  // an unreadable one): what the scan could not look into says nothing about its files.
  const isGone = (filePath: string) => !scan.files.has(filePath) && !isSkippedHere(filePath, skipped) && filePath !== "MEMORY.md";
  for (const filePath of waitingPaths(state)) {
    if (!isGone(filePath) || state.files[filePath] || isRetirementWaiting(state, filePath)) continue;
    const storeVersion = answer?.full ? incoming.get(filePath) : undefined;
    // A store file without a record (the state's tables were lost): its deletion is a retirement, below.
    if (storeVersion) state.files[filePath] = { blob: storeVersion.blob, local: "" };
    // A new file deleted while it waits: it never reaches the store.
    else cancelWaiting(state, filePath, "deleted", withdrawals);
  }
  for (const [filePath, known] of Object.entries(state.files)) {
    if (!isGone(filePath) || state.tombstones[filePath] || isRetirementWaiting(state, filePath)) continue;
    if (state.refused[filePath] && state.refused[filePath].localHash === null) continue; // a refused retirement, reported then
    if (removedInStore.has(filePath) || (answer?.full && !incoming.has(filePath))) continue; // gone on both sides
    // A change still queued is dropped; one in review becomes this retirement's previous revision.
    state.outbox = state.outbox.filter((item) => item.path !== filePath);
    state.tombstones[filePath] = { deletedAt: new Date().toISOString(), blob: known.blob };
    enqueue(state, report, { path: filePath, content: null, baseBlob: known.blob, localHash: null }, "retirement");
  }
  return withdrawals;
}

function lastQueued(state: SyncState, filePath: string): OutboxItem | undefined {
  return state.outbox.findLast((item) => item.path === filePath);
}

function waitingPaths(state: SyncState): Set<string> {
  return new Set([...state.outbox.map((item) => item.path), ...Object.keys(state.pending)]);
}

/** A retirement is queued or in review for the file (its deletion is on its way). */
function isRetirementWaiting(state: SyncState, filePath: string): boolean {
  const queued = lastQueued(state, filePath);
  return queued ? queued.content === null : state.pending[filePath]?.isRetirement === true;
}

/**
 * Drops what is queued for the file and its tombstone; a proposal in review is to be withdrawn.
 * A queued item may have been sent already with its answer lost: its key is cancelled on the
 * server at the next sync (a key that made nothing is answered as such).
 */
function cancelWaiting(state: SyncState, filePath: string, why: Withdrawal["why"], withdrawals: Withdrawal[]): void {
  for (const item of state.outbox) if (item.path === filePath) state.cancelled.push({ path: filePath, key: item.key, why });
  state.outbox = state.outbox.filter((item) => item.path !== filePath);
  delete state.tombstones[filePath];
  const pending = state.pending[filePath];
  if (pending) withdrawals.push({ path: filePath, proposalId: pending.proposalId, why });
}

type NewItem = Pick<OutboxItem, "path" | "content" | "baseBlob" | "localHash">;

function enqueue(state: SyncState, report: SyncReport, item: NewItem, kind: "new" | "change" | "retirement", isAgainstStoreHead = false): void {
  state.outbox.push({ ...item, key: randomBytes(18).toString("base64url"), baseCommit: item.baseBlob ? state.syncedCommit : null, queuedAt: new Date().toISOString() });
  report.proposed.push({ path: item.path, kind, proposalId: null, ...(isAgainstStoreHead ? { isAgainstStoreHead } : {}) });
}

/** A refusal holds while the file is as it was refused: changed (or, deleted, back again), it is offered anew. */
function forgetOutdatedRefusals(state: SyncState, scan: TeamDirScan): void {
  for (const [filePath, refusal] of Object.entries(state.refused)) {
    const localHash = scan.files.get(filePath)?.hash ?? null;
    if (localHash !== refusal.localHash && !scan.skipped.some((file) => file.path === filePath)) delete state.refused[filePath];
  }
}
