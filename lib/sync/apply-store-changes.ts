import type { SyncAnswer, SyncFile } from "../member-sync/sync-answer";
import { UnsafeMemoryPathError } from "../memdir/write-memory-file";
import { gitBlobId } from "./git-blob-id";
import type { TeamDirScan } from "./scan-team-dir";
import type { SyncReport } from "./sync-report";
import type { SyncState } from "./sync-state";
import type { TeamFiles } from "./team-files";
import { ChangedOnDiskError, type SeenBefore } from "./write-team-file";

export type ApplyStoreChangesOptions = {
  state: SyncState;
  scan: TeamDirScan;
  answer: SyncAnswer;
  files: TeamFiles;
  report: SyncReport;
  onProgress?: (done: number, total: number) => void;
};

/**
 * Brings team/ to the store's head: each changed file written atomically with the store commit's
 * time as mtime, each retired file removed. A file waiting for review (or deleted here, with a
 * tombstone) is never touched; neither is a local file that differs from what the last sync
 * wrote (a skipped file: secret, too big), nor (in a full comparison) one the store never had.
 */
export async function applyStoreChanges({ state, scan, answer, files, report, onProgress }: ApplyStoreChangesOptions): Promise<{ isComplete: boolean; isHeadHeld: boolean }> {
  const isWaiting = (filePath: string) => Boolean(state.pending[filePath] || state.tombstones[filePath] || state.outbox.some((item) => item.path === filePath));
  const skipped = new Set(scan.skipped.map((file) => file.path));
  const writes: { incoming: SyncFile; hash: string; isNew: boolean; seenBefore: SeenBefore | undefined }[] = [];
  for (const incoming of answer.files) {
    const known = state.files[incoming.path];
    const incomingHash = localBlobIdOf(incoming);
    if (isWaiting(incoming.path)) {
      if (known?.blob !== incoming.blob) markStoreChangedToo(report, incoming.path);
      continue;
    }
    const local = scan.files.get(incoming.path);
    if (local?.hash === incomingHash) {
      state.files[incoming.path] = { blob: incoming.blob, local: incomingHash }; // already there (a sync cut short)
      continue;
    }
    const refusal = state.refused[incoming.path];
    if (refusal && local && refusal.localHash === local.hash) {
      report.kept.push({ path: incoming.path, reason: `the store changed it, but your copy (refused earlier: ${refusal.reason}) stays as it is` });
      continue;
    }
    if (skipped.has(incoming.path)) {
      report.kept.push({ path: incoming.path, reason: "the store changed it, but your copy cannot be synced (see skipped); left as it is" });
      continue;
    }
    writes.push({ incoming, hash: incomingHash, isNew: !local && !known, seenBefore: seenBeforeOf(scan, incoming.path) });
  }
  let isComplete = true;
  let hasCaseTwin = false;
  // Retired files go first: a file retired and another added under the same name in another
  // letter case (a rename by case, in two commits) is one file on a macOS or Windows disk, and
  // removing the old name after writing the new one deleted it.
  const listed = new Set(answer.files.map((file) => file.path));
  const retired = answer.full ? Object.keys(state.files).filter((filePath) => !listed.has(filePath)) : answer.removed;
  for (const filePath of retired) {
    try {
      await removeRetired({ state, scan, files, report }, filePath, isWaiting(filePath), skipped.has(filePath));
    } catch (error) {
      isComplete = refuseOnDisk(report, filePath, error, "remove");
    }
  }
  // A first pull fills a new folder that becomes team/ whole (fresh-team-folder.ts).
  const fresh = answer.full && writes.length > 0 ? await files.startFreshFolder() : null;
  const write = fresh?.write ?? files.write;
  const removedNow = new Set(report.pulled.removed);
  const twinOf = caseTwinFinder([...Object.keys(state.files), ...[...scan.files.keys()].filter((filePath) => !removedNow.has(filePath))]);
  for (const [index, { incoming, hash, isNew, seenBefore }] of writes.entries()) {
    const twin = twinOf(incoming.path);
    if (twin !== null) {
      // Two store files this disk may hold as one (the store took both before its rule, or from outside teammem).
      report.kept.push({ path: incoming.path, reason: `not written: ${twin} is in your team/ folder, and this name differs from it in letter case only (a macOS or Windows disk holds them as one file); ask a lead to retire one of them` });
      hasCaseTwin = true;
      continue;
    }
    let written: Awaited<ReturnType<TeamFiles["write"]>>;
    try {
      written = await write(incoming.path, incoming.content, incoming.changedAt, seenBefore);
    } catch (error) {
      if (error instanceof ChangedOnDiskError) {
        // Its record stays the last synced version: the next sync proposes the new text against it.
        report.kept.push({ path: incoming.path, reason: "the store changed it, but your copy was saved while the sync ran; it stays as it is, and the next sync compares it" });
        isComplete = false;
        continue;
      }
      isComplete = refuseOnDisk(report, incoming.path, error);
      continue;
    } finally {
      onProgress?.(index + 1, writes.length);
    }
    (isNew ? report.pulled.added : report.pulled.changed).push(incoming.path);
    state.files[incoming.path] = { blob: incoming.blob, local: hash };
    if (written) scan.seen.set(incoming.path, { ...written, hash, problem: null });
  }
  for (const filePath of (await fresh?.place()) ?? []) {
    // A file Claude Code saved under that name while the sync ran stays; the next sync compares it.
    isComplete = false;
    delete state.files[filePath];
    scan.seen.delete(filePath);
    report.pulled.added = report.pulled.added.filter((added) => added !== filePath);
    report.kept.push({ path: filePath, reason: "not written: a file of that name appeared in your team/ folder during the sync; it stays as it is, and the next sync compares it with the store" });
  }
  // A case twin is a file no disk of the team is meant to hold beside its twin: the head counts as
  // held without it (the prompt hook tells the server so), and the next sync compares in full
  // again. Any other file not written leaves the head where it was, to be asked for again.
  return { isComplete: isComplete && !hasCaseTwin, isHeadHeld: isComplete };
}

/**
 * What the scan saw at a path the store writes, so a file saved there since is not replaced.
 * The index is not scanned (it is the store's, never proposed): it is replaced as it is.
 */
function seenBeforeOf(scan: TeamDirScan, filePath: string): SeenBefore | undefined {
  if (filePath === "MEMORY.md") return undefined;
  const seen = scan.seen.get(filePath);
  if (seen) return { stat: seen };
  return scan.files.has(filePath) ? undefined : { isAbsent: true };
}

/**
 * For each name about to be written, the file already in team/ (or written earlier in this sync)
 * whose name differs from it in letter case only, or null. The first of twins wins, in the
 * answer's order (sorted), so every member's disk holds the same one.
 */
function caseTwinFinder(present: string[]): (filePath: string) => string | null {
  const byFolded = new Map<string, string>();
  for (const filePath of present) if (!byFolded.has(filePath.toLowerCase())) byFolded.set(filePath.toLowerCase(), filePath);
  return (filePath) => {
    const folded = filePath.toLowerCase();
    const owner = byFolded.get(folded);
    if (owner === undefined) byFolded.set(folded, filePath);
    return owner === undefined || owner === filePath ? null : owner;
  };
}

/**
 * One file this disk will not take (a folder on the way links out of team/, a name the file
 * system refuses, no permission) is reported and the rest go on; the sync does not record the
 * store's head, so the next one tries that file again (false: the sync is not complete).
 * Anything else is a bug: it stops the sync.
 */
export function refuseOnDisk(report: SyncReport, filePath: string, error: unknown, operation: "write" | "remove" = "write"): false {
  const code = error instanceof Error && "code" in error ? String(error.code) : null;
  if (!(error instanceof UnsafeMemoryPathError) && (code === null || !DISK_REFUSALS.has(code))) throw error;
  const reason = error instanceof UnsafeMemoryPathError ? error.message.replace(/^Refusing to write "[^"]*": /, "").replace(/\.$/, "") : describeDiskRefusal(code);
  const what = operation === "remove" ? "the store retired it, but it cannot be removed here" : "the store's version cannot be written here";
  report.kept.push({ path: filePath, reason: `${what}: ${reason}; fix that and sync again` });
  return false;
}

const DISK_REFUSALS = new Set(["EACCES", "EPERM", "EEXIST", "ENOTDIR", "EISDIR", "ENAMETOOLONG", "EROFS", "ENOSPC", "EDQUOT", "ELOOP", "EILSEQ", "EINVAL"]);

function describeDiskRefusal(code: string | null): string {
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return "permission denied";
  if (code === "ENOSPC" || code === "EDQUOT") return "the disk is full";
  if (code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR") return "a file stands where a folder should be (or the other way round)";
  if (code === "ENAMETOOLONG") return "the name is too long for this file system";
  return `the file system refused it (${code})`;
}

type RemoveContext = Pick<ApplyStoreChangesOptions, "state" | "scan" | "files" | "report">;

async function removeRetired({ state, scan, files, report }: RemoveContext, filePath: string, isWaiting: boolean, isSkipped: boolean): Promise<void> {
  const known = state.files[filePath];
  const local = scan.files.get(filePath);
  if (isWaiting || isSkipped) {
    report.kept.push({ path: filePath, reason: isWaiting ? "the store retired it; your change to it waits for review" : "the store retired it, but your copy differs and cannot be synced; left as it is" });
    if (!isWaiting) delete state.files[filePath];
    return;
  }
  // Only what this machine knows came from the store is removed: a full comparison after a lost
  // state never deletes a file the store did not retire.
  if (local && known && local.hash === known.local) {
    // The record goes only once the file is gone: a removal this disk refused (a read-only
    // folder) is tried again by the next sync, which would otherwise take the file for a new one.
    await files.remove(filePath);
    scan.seen.delete(filePath);
    report.pulled.removed.push(filePath);
  } else if (local) report.kept.push({ path: filePath, reason: "the store retired it; your local copy differs, so it stays" });
  delete state.files[filePath];
}

/**
 * The git blob id of the text as written here. An unmasked file of a SHA-1 store is the store's
 * blob itself, so its id is already known (hashing 5,000 texts was a tenth of a first pull's CPU).
 * Hashed: a masked text, a SHA-256 store's, and one holding U+FFFD (a store file that was not
 * UTF-8 reads with replacement characters, so the bytes written here differ from the blob).
 */
function localBlobIdOf(incoming: SyncFile): string {
  const isStoreBytes = !incoming.masked && incoming.blob.length === 40 && !incoming.content.includes("\uFFFD");
  return isStoreBytes ? incoming.blob : gitBlobId(incoming.content);
}

function markStoreChangedToo(report: SyncReport, filePath: string): void {
  const waiting = report.waiting.find((entry) => entry.path === filePath);
  if (waiting) waiting.storeChangedToo = true;
  else report.waiting.push({ path: filePath, state: "submitted", storeChangedToo: true });
}
