import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import { AppError } from "../errors";
import { findKeyProblem } from "../memdir/validate-memory-key";
import { MAX_TRACKED_PROPOSALS } from "../member-sync/sync-answer";
import { parseJsonOrNull } from "../parse-json";
import { besideMemoryDir } from "./find-team-memory-dir";
import { syncStateFile } from "./read-sync-head";

export const SYNC_STATE_VERSION = 2;

type SyncedFile = {
  /** The store's blob id of the version last synced (the base of a proposal). */
  blob: string;
  /** The git blob id of what sync wrote on disk (differs from `blob` when the store's text was masked). */
  local: string;
};

const OutboxItem = z.object({
  /** Sent with the proposal: a retry returns the same proposal, never a second one. */
  key: z.string(),
  path: z.string(),
  /** Null: retire the file (a local deletion). */
  content: z.nullable(z.string()),
  baseBlob: z.nullable(z.string()),
  baseCommit: z.nullable(z.string()),
  /** The git blob id of `content` (null for a retirement). */
  localHash: z.nullable(z.string()),
  queuedAt: z.string(),
});
export type OutboxItem = z.infer<typeof OutboxItem>;

const PendingProposal = z.object({
  proposalId: z.string(),
  key: z.string(),
  localHash: z.nullable(z.string()),
  isRetirement: z.boolean(),
  submittedAt: z.string(),
});
export type PendingProposal = z.infer<typeof PendingProposal>;

const Tombstone = z.object({ deletedAt: z.string(), blob: z.string() });

/**
 * What a file in team/ looked like when a sync last read it (or wrote it): while size, mtime and
 * inode are unchanged its hash and verdict stand, and the file is neither read nor scanned again
 * (as git's index does). Only entries safely older than the sync that recorded them are kept
 * (see `keepTrustworthy`).
 */
export type SeenFile = {
  size: number;
  mtimeMs: number;
  ino: number;
  /** The git blob id of the bytes read. */
  hash: string;
  /** Why the file cannot travel (secret, size, not UTF-8), or null. */
  problem: string | null;
};

/** A local change the server refused: not offered again until the file changes (or comes back). */
const Refusal = z.object({
  /** The refused text's blob id; null for a refused retirement (a local deletion). */
  localHash: z.nullable(z.string()),
  reason: z.string(),
  refusedAt: z.string(),
});
export type Refusal = z.infer<typeof Refusal>;

/**
 * The two per-file maps hold one entry per memory (10,000 records at 5,000 memories). On disk
 * (format 2) they are tables of rows, not objects keyed by path: the file is 40 % of the size and
 * reads and writes in a third of the time, which is most of a no-op sync (docs/store.md, "Member
 * sync"). Rows are checked by hand: zod took about 40 ms for them in a fresh `teammem` process.
 *
 * - `files`: `[path, blob]`, or `[path, blob, local]` when what was written differs from the blob;
 * - `seen`: `[path, size, mtimeMs, ino, hash, problem]`.
 */
type FileRow = [path: string, blob: string, local?: string];
type SeenRow = [path: string, size: number, mtimeMs: number, ino: number, hash: string, problem: string | null];

const isFileRow = (row: unknown): row is FileRow =>
  Array.isArray(row) && (row.length === 2 || row.length === 3) && row.every((cell) => typeof cell === "string");
const isSeenRow = (row: unknown): row is SeenRow =>
  Array.isArray(row) && row.length === 6 && typeof row[0] === "string" && typeof row[1] === "number" && typeof row[2] === "number" && typeof row[3] === "number" && typeof row[4] === "string" && (row[5] === null || typeof row[5] === "string");

const tableOf = <Row extends [string, ...unknown[]], Entry>(isRow: (row: unknown) => row is Row, toEntry: (row: Row) => Entry) =>
  z.pipe(
    z.custom<Row[]>((value) => Array.isArray(value) && value.every(isRow)),
    z.transform((rows: Row[]) => {
      const entries: Record<string, Entry> = {};
      for (const row of rows) entries[row[0]] = toEntry(row);
      return entries;
    }),
  );

const SmallParts = {
  server: z.string(),
  projectId: z.string(),
  /** The store commit team/ was last brought to; null before the first complete sync. */
  syncedCommit: z.nullable(z.string()),
  syncedAt: z.nullable(z.string()),
  outbox: z.array(OutboxItem),
  /** path → the proposal its local change became, until the proposal is decided. */
  pending: z.record(z.string(), PendingProposal),
  /** Files deleted here whose retirement is not decided yet: a pull never revives them. */
  tombstones: z.record(z.string(), Tombstone),
  refused: z._default(z.record(z.string(), Refusal), {}),
  /** Where the next sync starts asking about waiting proposals, when there are more than one answer reports. */
  pendingCursor: z._default(z.int().check(z.minimum(0)), 0),
  /**
   * The last sync left store files unwritten (refused by this disk, case twins): the next one
   * compares with the whole head, since a diff from syncedCommit misses a file written then and
   * retired since.
   */
  needsFullComparison: z._default(z.boolean(), false),
};

const SavedState = z.object({
  version: z.literal(SYNC_STATE_VERSION),
  ...SmallParts,
  files: tableOf<FileRow, SyncedFile>(isFileRow, ([, blob, local]) => ({ blob, local: local ?? blob })),
  seen: tableOf<SeenRow, SeenFile>(isSeenRow, ([, size, mtimeMs, ino, hash, problem]) => ({ size, mtimeMs, ino, hash, problem })),
});

/** Format 1 kept the per-file maps as objects; its outbox must not be lost, so it is still read. */
const isSyncedFile = (entry: Record<string, unknown>) => typeof entry.blob === "string" && typeof entry.local === "string";
const isSeenFile = (entry: Record<string, unknown>) =>
  typeof entry.size === "number" && typeof entry.mtimeMs === "number" && typeof entry.ino === "number" && typeof entry.hash === "string" && (entry.problem === null || typeof entry.problem === "string");
const recordOf = <T>(isEntry: (value: Record<string, unknown>) => boolean) =>
  z.custom<Record<string, T>>((value) => typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === "object" && entry !== null && isEntry(entry as Record<string, unknown>)));
const SavedStateFormat1 = z.object({
  version: z.literal(1),
  ...SmallParts,
  files: recordOf<SyncedFile>(isSyncedFile),
  seen: z._default(recordOf<SeenFile>(isSeenFile), {}),
});

export type SyncState = Omit<z.output<typeof SavedState>, "version"> & { version: typeof SYNC_STATE_VERSION };

/** `foreign`: the saved state belongs to another server or project (kept aside before anything is saved). */
export type LoadedSyncState = { state: SyncState; problem: string | null; foreign: SyncState | null };

export function emptySyncState(server: string, projectId: string): SyncState {
  return { version: SYNC_STATE_VERSION, server, projectId, syncedCommit: null, syncedAt: null, files: {}, outbox: [], pending: {}, tombstones: {}, seen: {}, refused: {}, pendingCursor: 0, needsFullComparison: false };
}

/** `text` is the file as read, when it was read in the current format (a save of the same text is skipped). */
export type SavedSyncState = { state: SyncState | null; problem: string | null; text: string | null; newerFormat?: number | null };

/** The saved state, or null with the reason it cannot be used (missing, damaged, older format). */
export async function readSyncState(memoryDir: string): Promise<SavedSyncState> {
  let text: string;
  try {
    text = await readFile(syncStateFile(memoryDir), "utf8");
  } catch {
    return { state: null, problem: "no sync state yet", text: null };
  }
  const value = parseJsonOrNull(text);
  const version = (value as { version?: unknown } | null)?.version;
  const parsed = version === 1 ? SavedStateFormat1.safeParse(value) : SavedState.safeParse(value);
  if (parsed.success && !namesUnsafePath(parsed.data)) return { state: { ...parsed.data, version: SYNC_STATE_VERSION }, problem: null, text: version === SYNC_STATE_VERSION ? text : null };
  const isOtherFormat = typeof version === "number" && version !== SYNC_STATE_VERSION && version !== 1;
  return {
    state: null,
    text: null,
    problem: isOtherFormat ? `sync state of format ${version} (this client reads 1 and ${SYNC_STATE_VERSION})` : "the sync state file is damaged",
    newerFormat: isOtherFormat && version > SYNC_STATE_VERSION ? version : null,
  };
}

/**
 * The state names files the sync will write, replace and delete under team/. A hand-edited (or
 * planted) state naming `../../x.md` must not reach those steps: such a state is damaged.
 */
function namesUnsafePath(state: Omit<SyncState, "version">): boolean {
  // One check per name: the two per-file maps name the same files.
  const paths = new Set([...Object.keys(state.files), ...Object.keys(state.seen), ...Object.keys(state.pending), ...Object.keys(state.tombstones), ...Object.keys(state.refused), ...state.outbox.map((item) => item.path)]);
  for (const filePath of paths) if (findKeyProblem(filePath) !== null || !filePath.endsWith(".md")) return true;
  return false;
}

/**
 * The state to sync with: the saved one when it is for this server and project; otherwise a fresh
 * one (a full comparison follows). A damaged file's outbox cannot be trusted, but an intact one
 * for another project is kept aside untouched under its own name.
 */
export function chooseSyncState({ state, problem }: SavedSyncState, server: string, projectId: string): LoadedSyncState {
  if (!state) return { state: emptySyncState(server, projectId), problem, foreign: null };
  if (state.server !== server || state.projectId !== projectId) {
    return { state: emptySyncState(server, projectId), problem: `the sync state was for ${state.projectId} on ${state.server}; it is kept aside`, foreign: state };
  }
  return { state, problem: null, foreign: null };
}

/**
 * Moves the saved state file aside untouched (its outbox may hold changes not sent yet) before a
 * state for another server or project takes its place. Returns where it went.
 */
export async function keepSyncStateAside(memoryDir: string, foreign: SyncState): Promise<string> {
  const name = `${foreign.projectId}`.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
  const target = besideMemoryDir(memoryDir, `sync.${name}.${Date.now()}.json`);
  await rename(syncStateFile(memoryDir), target);
  return target;
}

/** A state file written by a newer teammem is never overwritten by this one. */
export function assertReadableFormat(saved: SavedSyncState, memoryDir: string): void {
  if (!saved.newerFormat) return;
  throw new AppError("INVALID_INPUT", `${syncStateFile(memoryDir)} was written by a newer teammem (sync state format ${saved.newerFormat}; this one reads up to ${SYNC_STATE_VERSION}): update teammem and sync again.`);
}

/**
 * The waiting proposals to ask the server about: all of them, or, past what one answer reports,
 * the next run of them in turn (the state remembers where), so every one is settled eventually.
 */
export function proposalIdsToAsk(state: SyncState, { isAdvancing }: { isAdvancing: boolean }): string[] {
  const ids = Object.values(state.pending).map((pending) => pending.proposalId).sort();
  if (ids.length <= MAX_TRACKED_PROPOSALS) return ids;
  const start = state.pendingCursor % ids.length;
  if (isAdvancing) state.pendingCursor = (start + MAX_TRACKED_PROPOSALS) % ids.length;
  return [...ids, ...ids].slice(start, start + MAX_TRACKED_PROPOSALS);
}

/** The state as saved (format 2): the per-file maps as tables of rows, everything else as it is. */
export function serializeSyncState(state: SyncState): string {
  const files: FileRow[] = [];
  for (const [filePath, file] of Object.entries(state.files)) files.push(file.local === file.blob ? [filePath, file.blob] : [filePath, file.blob, file.local]);
  const seen: SeenRow[] = [];
  for (const [filePath, record] of Object.entries(state.seen)) seen.push([filePath, record.size, record.mtimeMs, record.ino, record.hash, record.problem]);
  // Fields in a fixed order, so an unchanged state gives the same text however it was built, and
  // the head (version, server, projectId, syncedCommit) first: `readSyncHead` reads only that.
  // Compact: at 5,000 memories indentation alone would be a fifth of the file.
  const { server, projectId, syncedCommit, syncedAt, outbox, pending, tombstones, refused, pendingCursor, needsFullComparison } = state;
  const incomplete = needsFullComparison ? { needsFullComparison } : {}; // absent when false: most states never have it
  return JSON.stringify({ version: SYNC_STATE_VERSION, server, projectId, syncedCommit, syncedAt, outbox, pending, tombstones, refused, pendingCursor, ...incomplete, files, seen }) + "\n";
}

/**
 * Written atomically (temporary file + rename in the same folder), owner-only. Returns the text
 * saved; given the text last read or saved, a state that serializes the same is not written again
 * (a sync saves at each step where something could have changed, and a no-op changes nothing).
 */
export async function saveSyncState(memoryDir: string, state: SyncState, lastSavedText: string | null = null): Promise<string> {
  const text = serializeSyncState(state);
  if (text === lastSavedText) return text;
  const target = syncStateFile(memoryDir);
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return text;
}
