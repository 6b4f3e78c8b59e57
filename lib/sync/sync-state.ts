import { randomUUID } from "node:crypto";
import { lstat, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import { AppError } from "../errors";
import { findKeyProblem } from "../memdir/validate-memory-key";
import { MAX_TRACKED_PROPOSALS } from "../member-sync/sync-answer";
import { parseJsonOrNull } from "../parse-json";
import { besideMemoryDir } from "./find-team-memory-dir";
import { syncStateFile } from "./read-sync-head";
import { findTablesStart, serializeTables, tablesFromRows, type SeenFile, type SyncedFile, type Tables, type TablesText } from "./sync-state-tables";

export type { SeenFile, SyncedFile } from "./sync-state-tables";

export const SYNC_STATE_VERSION = 2;

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

/** A local change the server refused: not offered again until the file changes (or comes back). */
const Refusal = z.object({
  /** The refused text's blob id; null for a refused retirement (a local deletion). */
  localHash: z.nullable(z.string()),
  reason: z.string(),
  refusedAt: z.string(),
});
export type Refusal = z.infer<typeof Refusal>;

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
  /**
   * Queued changes dropped since (the file put back, a new file deleted) whose submission may
   * have reached the server with its answer lost: each key is cancelled there on the next sync.
   */
  cancelled: z._default(z.array(z.object({ path: z.string(), key: z.string(), why: z.enum(["put back", "deleted"]) })), []),
  /** Where the next sync starts asking about waiting proposals, when there are more than one answer reports. */
  pendingCursor: z._default(z.int().check(z.minimum(0)), 0),
  /**
   * The last sync left store files unwritten (refused by this disk, case twins): the next one
   * compares with the whole head, since a diff from syncedCommit misses a file written then and
   * retired since.
   */
  needsFullComparison: z._default(z.boolean(), false),
};

/** Format 2 without its per-file tables, which are checked by hand (sync-state-tables.ts). */
const SavedHead = z.object({ version: z.literal(SYNC_STATE_VERSION), ...SmallParts });

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

export type SyncState = z.output<typeof SavedHead> & Tables;

/** `foreign`: the saved state belongs to another server or project (kept aside before anything is saved). */
export type LoadedSyncState = { state: SyncState; problem: string | null; foreign: SyncState | null };

export function emptySyncState(server: string, projectId: string): SyncState {
  return { version: SYNC_STATE_VERSION, server, projectId, syncedCommit: null, syncedAt: null, files: {}, outbox: [], pending: {}, tombstones: {}, seen: {}, refused: {}, cancelled: [], pendingCursor: 0, needsFullComparison: false };
}

/**
 * The state's text as last read or saved, in two parts: a save whose head serializes the same
 * and whose tables still hold the same rows writes nothing, and unchanged tables are not
 * serialized again.
 */
export type SaveBasis = { head: string; tables: TablesText };

/** `basis` is set when the file was read in the current format and laid out as this client writes it. */
export type SavedSyncState = { state: SyncState | null; problem: string | null; basis: SaveBasis | null; newerFormat?: number | null };

/** The saved state, or null with the reason it cannot be used (missing, damaged, older format). */
export async function readSyncState(memoryDir: string): Promise<SavedSyncState> {
  return parseSyncState(await readSyncStateText(memoryDir));
}

/** The state file's text, or null when there is none (or it cannot be read). */
export async function readSyncStateText(memoryDir: string): Promise<string | null> {
  try {
    return await readFile(syncStateFile(memoryDir), "utf8");
  } catch {
    return null;
  }
}

/** The state in `text` (null: no file); `value` is the text already parsed as JSON, when it was. */
export function parseSyncState(text: string | null, value: unknown = text === null ? null : parseJsonOrNull(text)): SavedSyncState {
  if (text === null) return { state: null, problem: "no sync state yet", basis: null };
  const parts = readParts(text, value);
  const version = (parts.head as { version?: unknown } | null)?.version;
  const state = version === 1 ? readFormat1(parts.head) : version === SYNC_STATE_VERSION ? readFormat2(parts) : null;
  if (state && !namesUnsafePath(state)) return { state, problem: null, basis: version === SYNC_STATE_VERSION ? basisOf(state, parts) : null };
  const isOtherFormat = typeof version === "number" && version !== SYNC_STATE_VERSION && version !== 1;
  const salvaged = value === null ? salvageHead(text) : null; // only a text that is not JSON as a whole
  if (salvaged) return { state: salvaged, problem: "the sync state file was damaged past its queue: what waits was kept, and a full comparison runs", basis: null };
  return {
    state: null,
    basis: null,
    problem: isOtherFormat ? `sync state of format ${version} (this client reads 1 and ${SYNC_STATE_VERSION})` : "the sync state file is damaged",
    newerFormat: isOtherFormat && version > SYNC_STATE_VERSION ? version : null,
  };
}

/**
 * A format-2 text cut short or damaged in its per-file tables (a full disk, a crash of another
 * tool) still holds its head, written first: the outbox, waiting proposals and tombstones are
 * kept (a local deletion queued offline is not forgotten, and the deleted file not revived);
 * the tables are dropped and the next sync compares everything.
 */
function salvageHead(text: string): SyncState | null {
  const start = text.indexOf(',"files":[');
  const head = start > 0 ? parseSavedHead(parseJsonOrNull(text.slice(0, start) + "}")) : null;
  if (!head) return null;
  const state: SyncState = { ...head, files: {}, seen: {}, needsFullComparison: true };
  return namesUnsafePath(state) ? null : state;
}

type StateParts = { head: unknown; headText: string; tables: Tables | null; tablesText: TablesText | null };

/**
 * The text parsed once, and when it ends with the tables as `serializeSyncState` writes them
 * (`files`, then `seen`, last), the two parts of its text: the next save compares with them.
 */
function readParts(text: string, value: unknown): StateParts {
  const rows = isObject(value) ? tablesFromRows(value.files, value.seen) : null;
  const start = rows && Object.keys(value as object).slice(-2).join() === "files,seen" ? findTablesStart(text) : -1;
  const tablesText = rows && start > 0 ? { text: text.slice(start), files: rows.files, seen: rows.seen } : null;
  return { head: value, headText: tablesText ? text.slice(0, start) : "", tables: rows?.tables ?? null, tablesText };
}

/**
 * The text as two parts a save can compare with, when its head is exactly what this client
 * writes (then the tables begin where the head ends, and reusing their text reproduces what was
 * read, whatever a hand edit put there); else null, and the first save writes the whole state.
 */
function basisOf(state: SyncState, parts: StateParts): SaveBasis | null {
  if (!parts.tablesText || serializeHead(state) !== parts.headText) return null;
  return { head: parts.headText, tables: parts.tablesText };
}

/** The format-2 fields other than the per-file tables, checked; null when they do not hold. */
export function parseSavedHead(value: unknown): z.output<typeof SavedHead> | null {
  const head = SavedHead.safeParse(value);
  return head.success ? head.data : null;
}

function readFormat2(parts: StateParts): SyncState | null {
  const head = parseSavedHead(parts.head);
  if (!head || !parts.tables) return null;
  return { ...head, ...parts.tables };
}

function readFormat1(value: unknown): SyncState | null {
  const parsed = SavedStateFormat1.safeParse(value);
  return parsed.success ? { ...parsed.data, version: SYNC_STATE_VERSION } : null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The state names files the sync will write, replace and delete under team/. A hand-edited (or
 * planted) state naming `../../x.md` must not reach those steps: such a state is damaged.
 */
function namesUnsafePath(state: Omit<SyncState, "version">): boolean {
  const isUnsafe = (filePath: string) => findKeyProblem(filePath) !== null || !filePath.endsWith(".md");
  for (const filePath in state.files) if (isUnsafe(filePath)) return true;
  // The two per-file maps name nearly the same files: each name is checked once.
  for (const filePath in state.seen) if (!Object.hasOwn(state.files, filePath) && isUnsafe(filePath)) return true;
  const others = [...Object.keys(state.pending), ...Object.keys(state.tombstones), ...Object.keys(state.refused), ...state.outbox.map((item) => item.path)];
  return others.some(isUnsafe);
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
  return { state, problem, foreign: null }; // a salvaged state says what was lost
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

/**
 * The state as saved (format 2), in its two parts: the head (everything but the per-file tables,
 * without its closing brace) and the tables, last. Fields in a fixed order, so an unchanged
 * state gives the same text however it was built, and `version`, `server`, `projectId`,
 * `syncedCommit` first: `readSyncHead` reads only those. Compact: at 5,000 memories indentation
 * alone would be a fifth of the file.
 */
function serializeParts(state: SyncState, previous: SaveBasis | null): SaveBasis {
  return { head: serializeHead(state), tables: serializeTables(state, previous?.tables ?? null) };
}

export function serializeHead(state: Omit<SyncState, "files" | "seen">): string {
  const { server, projectId, syncedCommit, syncedAt, outbox, pending, tombstones, refused, cancelled, pendingCursor, needsFullComparison } = state;
  // Absent when empty or false: most states never have them.
  const toCancel = cancelled.length > 0 ? { cancelled } : {};
  const incomplete = needsFullComparison ? { needsFullComparison } : {};
  return JSON.stringify({ version: SYNC_STATE_VERSION, server, projectId, syncedCommit, syncedAt, outbox, pending, tombstones, refused, ...toCancel, pendingCursor, ...incomplete }).slice(0, -1);
}

export function serializeSyncState(state: SyncState): string {
  const { head, tables } = serializeParts(state, null);
  return head + tables.text;
}

/**
 * Written atomically (temporary file + rename in the same folder), owner-only. Returns what was
 * saved; given what was last read or saved, a state that serializes the same is not written
 * again (a sync saves at each step where something could have changed, and a no-op changes
 * little: its time and nothing in the tables).
 */
export async function saveSyncState(memoryDir: string, state: SyncState, previous: SaveBasis | null = null): Promise<SaveBasis> {
  const parts = serializeParts(state, previous);
  if (previous && parts.head === previous.head && parts.tables === previous.tables) return parts;
  await writeSyncStateText(memoryDir, parts.head + parts.tables.text);
  return parts;
}

/** The state file replaced by `text` atomically (temporary file + rename in the same folder), owner-only. */
export async function writeSyncStateText(memoryDir: string, text: string): Promise<void> {
  const target = syncStateFile(memoryDir);
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await rename(temp, target).catch(async (error: NodeJS.ErrnoException) => {
      // A folder where the state belongs (made by hand or by a tool): kept aside, never removed.
      if (!(await lstat(target).catch(() => null))?.isDirectory()) throw error;
      await rename(target, `${target}.folder-kept-${Date.now()}`);
      await rename(temp, target);
    });
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
