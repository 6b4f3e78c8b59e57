import { randomBytes } from "node:crypto";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { gitBlobId } from "./git-blob-id";
import { readTravellingContent, type TeamDirScan } from "./scan-team-dir";
import type { SyncReport } from "./sync-report";
import type { OutboxItem, SyncState } from "./sync-state";

export type CaptureOptions = {
  state: SyncState;
  scan: TeamDirScan;
  /** What the store holds now; null offline (then every difference from the last sync is a change). */
  answer: SyncAnswer | null;
  report: SyncReport;
};

/**
 * Turns every difference between team/ and what the last sync wrote into an outbox item (a
 * proposal to be), before anything on disk is replaced: new and changed files, and deletions
 * (which leave a tombstone so no pull revives the file). A file already equal to the store's
 * incoming version is simply adopted: that is how a sync killed after writing files converges
 * without proposing them back.
 */
export function captureLocalChanges({ state, scan, answer, report }: CaptureOptions): void {
  const incoming = new Map((answer?.files ?? []).map((file) => [file.path, file]));
  const removedInStore = new Set(answer?.removed ?? []);
  const queued = new Map(state.outbox.map((item) => [item.path, item]));
  forgetOutdatedRefusals(state, scan);
  for (const file of scan.files.values()) {
    const waiting = queued.get(file.path)?.localHash ?? state.pending[file.path]?.localHash;
    if (waiting === file.hash) continue; // already on its way, unchanged since
    if (state.refused[file.path]?.localHash === file.hash) continue; // refused once, reported then
    const known = state.files[file.path];
    if (!waiting && known && known.local === file.hash) continue;
    const storeVersion = incoming.get(file.path);
    if (!waiting && storeVersion && gitBlobId(storeVersion.content) === file.hash) {
      state.files[file.path] = { blob: storeVersion.blob, local: file.hash };
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
  }
  const skipped = new Set(scan.skipped.map((file) => file.path));
  for (const [filePath, known] of Object.entries(state.files)) {
    if (scan.files.has(filePath) || skipped.has(filePath) || filePath === "MEMORY.md") continue;
    if (queued.has(filePath) || state.pending[filePath] || state.tombstones[filePath]) continue;
    if (state.refused[filePath] && state.refused[filePath].localHash === null) continue; // a refused retirement, reported then
    if (removedInStore.has(filePath) || (answer?.full && !incoming.has(filePath))) continue; // gone on both sides
    state.tombstones[filePath] = { deletedAt: new Date().toISOString(), blob: known.blob };
    enqueue(state, report, { path: filePath, content: null, baseBlob: known.blob, localHash: null }, "retirement");
  }
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
