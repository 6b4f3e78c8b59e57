import { assertTeamFolder } from "./assert-team-folder";
import { findQuietState, isTeamDirAsRecorded } from "./quiet-sync";
import { isSkippedHere, scanTeamDir } from "./scan-team-dir";
import type { SyncState } from "./sync-state";

export type UnsyncedChanges = {
  added: string[];
  changed: string[];
  deleted: string[];
  /** Files in team/ that may not travel (a secret, too large, an invalid name, a link), with the reason. */
  cannotTravel: { path: string; reason: string }[];
  /** team/ is gone as a whole: the next sync fills it again (not a deletion of every file). */
  isTeamDirMissing: boolean;
};

export type FindUnsyncedChangesOptions = {
  teamDir: string;
  state: SyncState;
  /** The state file's text and its JSON, as read: the quiet check works on them without building tables. */
  stored: { text: string; value: unknown };
};

/**
 * What the next `teammem sync` would take up from team/: files added, changed or deleted since
 * the last sync that nothing queued or in review holds yet (docs/store.md, "Member sync", step 7).
 * Cheap first: a state with nothing waiting whose every file still has its recorded size, mtime
 * and inode means no change, and no file is read (quiet-sync.ts). Otherwise team/ is scanned
 * against the state's records: a file whose stat is unchanged is not read again.
 */
export async function findUnsyncedChanges({ teamDir, state, stored }: FindUnsyncedChangesOptions): Promise<UnsyncedChanges> {
  const changes: UnsyncedChanges = { added: [], changed: [], deleted: [], cannotTravel: [], isTeamDirMissing: false };
  const quiet = findQuietState(stored.text, stored.value, state.server, state.projectId);
  if (quiet && (await isTeamDirAsRecorded(teamDir, quiet))) return changes;
  if (!(await assertTeamFolder(teamDir))) return { ...changes, isTeamDirMissing: Object.keys(state.files).some((filePath) => !isIndex(filePath)) };
  const scan = await scanTeamDir(teamDir, state.seen);
  changes.cannotTravel = scan.skipped;
  const skipped = new Set(scan.skipped.map((file) => file.path));
  for (const file of scan.files.values()) {
    const expected = lastSyncedHash(state, file.path);
    if (expected === file.hash || state.refused[file.path]?.localHash === file.hash) continue;
    (typeof expected === "string" ? changes.changed : changes.added).push(file.path);
  }
  const known = new Set([...Object.keys(state.files), ...Object.keys(state.pending), ...state.outbox.map((item) => item.path)]);
  for (const filePath of known) {
    if (isIndex(filePath) || scan.files.has(filePath) || isSkippedHere(filePath, skipped)) continue;
    const isRefusedDeletion = state.refused[filePath]?.localHash === null;
    if (typeof lastSyncedHash(state, filePath) === "string" && !isRefusedDeletion) changes.deleted.push(filePath);
  }
  for (const list of [changes.added, changes.changed, changes.deleted]) list.sort();
  return changes;
}

/**
 * The text the last sync left a file with: what is queued or in review for it, else what it
 * wrote. Null: its deletion is on its way; undefined: no sync has seen it.
 */
function lastSyncedHash(state: SyncState, filePath: string): string | null | undefined {
  const queued = state.outbox.findLast((item) => item.path === filePath);
  if (queued) return queued.localHash;
  if (state.pending[filePath]) return state.pending[filePath].localHash;
  if (state.tombstones[filePath]) return null;
  return state.files[filePath]?.local;
}

/** The store's index, written by sync and never scanned (S1): not a local change, not a deletion. */
function isIndex(filePath: string): boolean {
  return filePath === "MEMORY.md";
}
