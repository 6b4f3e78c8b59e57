import { lstatSync } from "node:fs";
import path from "node:path";
import type { ApiTarget } from "../client/teammem-api";
import { isAppError } from "../errors";
import { listMarkdownFiles } from "../memdir/list-markdown-files";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { fetchSyncAnswer } from "./sync-api";
import { emptyReport, type SyncReport } from "./sync-report";
import { parseSavedHead, serializeHead, writeSyncStateText } from "./sync-state";
import { findTablesStart, isFileRow, isSeenRow, type SeenRow } from "./sync-state-tables";

/**
 * What a quiet state holds: the last sync left nothing waiting on either side, so a sync that
 * finds team/ exactly as it recorded it and the store still at the same commit has nothing to
 * do. `text` and `tablesStart` let that sync save its time without serializing the tables.
 */
export type QuietState = {
  head: NonNullable<ReturnType<typeof parseSavedHead>> & { syncedCommit: string };
  recorded: Map<string, SeenRow>;
  /** The last sync wrote the store's index, MEMORY.md: it must still be there. */
  hasIndex: boolean;
  text: string;
  tablesStart: number;
};

export type QuietOutcome = { report: SyncReport; answer: null } | { report: null; answer: SyncAnswer };

/**
 * The saved state when a sync from it may take the quiet path: the format this client writes,
 * for this server (and `--project`, when given), brought to a commit, with no outbox, waiting
 * proposal, tombstone, refusal or pending full comparison, and one record per synced file whose
 * verdict is clean and whose hash is what the sync wrote. Anything else is null: the full sync
 * runs (docs/store.md, "Member sync").
 */
export function findQuietState(text: string | null, value: unknown, server: string, flagProjectId: string | null): QuietState | null {
  if (text === null || typeof value !== "object" || value === null) return null;
  const head = parseSavedHead(value);
  if (!head || head.server !== server || (flagProjectId !== null && flagProjectId !== head.projectId)) return null;
  if (head.syncedCommit === null || head.needsFullComparison || head.outbox.length > 0 || head.cancelled.length > 0) return null;
  if (hasKeys(head.pending) || hasKeys(head.tombstones) || hasKeys(head.refused)) return null;
  const { files, seen } = value as { files?: unknown; seen?: unknown };
  if (!Array.isArray(files) || !Array.isArray(seen) || Object.keys(value).slice(-2).join() !== "files,seen") return null;
  const recorded = new Map<string, SeenRow>();
  let indexRows = 0;
  for (const row of seen) {
    if (!isSeenRow(row) || row[5] !== null) return null;
    // The index a pull wrote is recorded then, but no scan lists it (S1): the full sync drops the row.
    if (row[0] === "MEMORY.md") indexRows++;
    else recorded.set(row[0], row);
  }
  if (recorded.size + indexRows !== seen.length) return null;
  let synced = 0;
  let hasIndex = false;
  for (const row of files) {
    if (!isFileRow(row)) return null;
    if (row[0] === "MEMORY.md") {
      hasIndex = true; // the store's index: written by sync, never scanned
      continue;
    }
    if (recorded.get(row[0])?.[4] !== (row[2] ?? row[1])) return null;
    synced++;
  }
  const tablesStart = findTablesStart(text);
  if (synced !== recorded.size || tablesStart <= 0) return null;
  return { head: { ...head, syncedCommit: head.syncedCommit }, recorded, hasIndex, text, tablesStart };
}

/**
 * Whether team/ holds exactly the recorded files, each with the size, mtime and inode it had, and
 * the store's index when the last sync wrote it:
 * then no file was added, changed or deleted since (as git's index judges a clean work tree),
 * and none needs reading. One listing and one `lstat` per file; any difference is false.
 */
export async function isTeamDirAsRecorded(teamDir: string, quiet: QuietState): Promise<boolean> {
  const listing = await listMarkdownFiles(teamDir);
  if (listing.skipped.length > 0 || listing.files.length !== quiet.recorded.size) return false;
  const folderPrefix = path.join(teamDir, "/");
  if (quiet.hasIndex && !lstatSync(folderPrefix + "MEMORY.md", { throwIfNoEntry: false })?.isFile()) return false;
  for (const relativePath of listing.files) {
    const row = quiet.recorded.get(relativePath);
    if (!row) return false;
    const info = lstatSync(folderPrefix + relativePath, { throwIfNoEntry: false });
    if (!info?.isFile() || info.size !== row[1] || info.mtimeMs !== row[2] || info.ino !== row[3]) return false;
  }
  return true;
}

export type QuietSyncOptions = {
  target: ApiTarget;
  memoryDir: string;
  teamDir: string;
  isDryRun: boolean;
  clientVersion: string;
};

/** The quiet path's question, asked before its answer is needed; it never rejects. */
export type AskedStore = { answer: SyncAnswer; error: null } | { answer: null; error: unknown };

/**
 * The quiet path's question to the server (the same one the full sync asks from this state),
 * started while team/ is still being checked: a member then waits for the network and the disk
 * at once, not one after the other.
 */
export function askStoreQuietly(options: QuietSyncOptions, quiet: QuietState): Promise<AskedStore> {
  const { projectId, syncedCommit } = quiet.head;
  return fetchSyncAnswer(options.target, { projectId, since: syncedCommit, proposalIds: [], clientVersion: options.clientVersion, isPeek: options.isDryRun }).then(
    (answer) => ({ answer, error: null }),
    (error: unknown) => ({ answer: null, error }),
  );
}

/**
 * The quiet path once team/ is known to be as recorded. When the store is still at the synced
 * commit, the sync is done: its time is saved with the tables' text as read, and the report is
 * the full sync's for a no-op. Otherwise the answer is handed back for the full sync to use;
 * offline, the report says so and nothing is saved (there is nothing to queue).
 */
export async function syncQuietly(options: QuietSyncOptions, quiet: QuietState, asked: AskedStore): Promise<QuietOutcome> {
  const { projectId, syncedCommit } = quiet.head;
  const report = emptyReport({ projectId, memoryDir: options.memoryDir, teamDir: options.teamDir, isDryRun: options.isDryRun, stateProblem: null });
  if (asked.answer === null) {
    const { error } = asked;
    if (!isAppError(error) || error.code !== "SERVER_UNAVAILABLE" || error.details.isMalformedAnswer) throw error;
    return { report: { ...report, mode: "offline", offlineReason: error.message }, answer: null };
  }
  const { answer } = asked;
  const isNoOp = answer.isUnchanged && answer.head === syncedCommit && answer.files.length === 0 && answer.removed.length === 0 && answer.proposals.length === 0;
  if (!isNoOp) return { report: null, answer };
  if (!options.isDryRun) await writeSyncStateText(options.memoryDir, serializeHead({ ...quiet.head, syncedAt: new Date().toISOString() }) + quiet.text.slice(quiet.tablesStart));
  return { report: { ...report, head: answer.head, mode: "unchanged" }, answer: null };
}

function hasKeys(record: Record<string, unknown>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}
