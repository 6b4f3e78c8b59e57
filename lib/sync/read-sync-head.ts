import { open } from "node:fs/promises";
import { besideMemoryDir } from "./find-team-memory-dir";

/** What the prompt hook and `teammem propose` need of the sync state: where team/ syncs with, and to which commit. */
export type SyncHead = { server: string; projectId: string; syncedCommit: string | null };

export function syncStateFile(memoryDir: string): string {
  return besideMemoryDir(memoryDir, "sync.json");
}

/** The head fields are in the file's first few hundred bytes; a longer server or project name falls back. */
const PEEK_BYTES = 4_096;
const JSON_STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\.)*"`;
/** `serializeSyncState` writes these fields first and in this order (format 2). */
const HEAD = new RegExp(String.raw`^\{"version":2,"server":(${JSON_STRING}),"projectId":(${JSON_STRING}),"syncedCommit":(null|"[0-9a-f]{40}(?:[0-9a-f]{24})?")[,}]`);

/**
 * The sync state's head without reading the rest: at 5,000 synced memories the whole state is
 * ~0.5-1 MB of per-file tables, and the prompt hook runs before every prompt (docs/store.md,
 * "Member sync"). Reads the file's beginning and matches the fields format 2 writes first; any
 * other beginning (format 1, a hand edit, a missing file) is read the whole way, checked as sync
 * checks it. Null when there is no usable state.
 */
export async function readSyncHead(memoryDir: string): Promise<SyncHead | null> {
  const beginning = await readBeginning(syncStateFile(memoryDir));
  if (beginning === null) return null;
  const head = headOf(beginning);
  if (head) return head;
  const { readSyncState } = await import("./sync-state");
  const { state } = await readSyncState(memoryDir);
  return state ? { server: state.server, projectId: state.projectId, syncedCommit: state.syncedCommit } : null;
}

/** The head fields at the start of a state's text, or null when it does not start the way format 2 does. */
export function headOf(text: string): SyncHead | null {
  const match = HEAD.exec(text);
  if (!match) return null;
  const [server, projectId] = [JSON.parse(match[1]!) as string, JSON.parse(match[2]!) as string];
  if (server === "" || projectId === "") return null;
  return { server, projectId, syncedCommit: match[3] === "null" ? null : (JSON.parse(match[3]!) as string) };
}

async function readBeginning(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(PEEK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, PEEK_BYTES, 0);
    // A character cut at the end decodes as U+FFFD, past the head fields.
    return buffer.toString("utf8", 0, bytesRead);
  } finally {
    await handle.close();
  }
}
