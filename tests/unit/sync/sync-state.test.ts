import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { headOf, readSyncHead, syncStateFile } from "@/lib/sync/read-sync-head";
import { emptySyncState, readSyncState, saveSyncState, serializeSyncState, type SyncState } from "@/lib/sync/sync-state";

let root: string;
let memoryDir: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-sync-state-"));
  memoryDir = path.join(root, "memory");
});
afterEach(() => rm(root, { recursive: true, force: true }));

const blob = (char: string) => char.repeat(40);
function stateWithFiles(): SyncState {
  const state = emptySyncState("http://127.0.0.1:3000", "acme-checkout");
  state.syncedCommit = blob("c");
  state.files = { "project_a.md": { blob: blob("a"), local: blob("a") }, "notes/b.md": { blob: blob("b"), local: blob("d") } };
  state.seen = { "project_a.md": { size: 120, mtimeMs: 1764600000123.5, ino: 42, hash: blob("a"), problem: null }, "notes/b.md": { size: 9, mtimeMs: 1, ino: 7, hash: blob("e"), problem: "holds a secret (aws)" } };
  state.outbox = [{ key: "k1", path: "project_new.md", content: "---\nname: New\n---\n", baseBlob: null, baseCommit: null, localHash: blob("f"), queuedAt: "2026-12-01T10:00:00.000Z" }];
  return state;
}

describe("sync state file", () => {
  it("reads back exactly what was saved", async () => {
    const state = stateWithFiles();
    await saveSyncState(memoryDir, state);
    expect((await readSyncState(memoryDir)).state).toEqual(state);
  });

  it("reads a state saved by the previous client (format 1) without losing its outbox, and saves it in the current format", async () => {
    const state = stateWithFiles();
    await writeFile(syncStateFile(memoryDir), JSON.stringify({ ...state, version: 1 }));
    const read = await readSyncState(memoryDir);
    expect(read.problem).toBeNull();
    expect(read.state).toEqual(state);
    await saveSyncState(memoryDir, read.state!, read.basis);
    expect(JSON.parse(await readFile(syncStateFile(memoryDir), "utf8")).version).toBe(2);
    expect((await readSyncState(memoryDir)).state).toEqual(state);
  });

  it("does not write a state that is unchanged since it was read", async () => {
    const state = stateWithFiles();
    await saveSyncState(memoryDir, state);
    const read = await readSyncState(memoryDir);
    const before = await stat(syncStateFile(memoryDir));
    await saveSyncState(memoryDir, read.state!, read.basis);
    expect((await stat(syncStateFile(memoryDir))).ino).toBe(before.ino);
    read.state!.syncedAt = "2026-12-01T11:00:00.000Z";
    await saveSyncState(memoryDir, read.state!, read.basis);
    expect((await stat(syncStateFile(memoryDir))).ino).not.toBe(before.ino);
  });

  it("saves what changed in the per-file tables, also when it reuses the text of unchanged ones", async () => {
    const state = stateWithFiles();
    await saveSyncState(memoryDir, state);
    const read = await readSyncState(memoryDir);
    const changes: ((state: SyncState) => void)[] = [
      (state) => void (state.syncedAt = "2026-12-01T12:00:00.000Z"), // the head only: the tables' text is reused
      (state) => void (state.seen["project_a.md"] = { ...state.seen["project_a.md"]!, mtimeMs: 1764600000999 }),
      (state) => void (state.files["notes/b.md"] = { blob: blob("b"), local: blob("b") }),
      (state) => {
        // Same number of entries, one name replaced by another.
        delete state.seen["notes/b.md"];
        state.seen["notes/c.md"] = { size: 3, mtimeMs: 2, ino: 8, hash: blob("9"), problem: null };
      },
      (state) => void (state.seen["project_a.md"] = { ...state.seen["project_a.md"]!, problem: "holds a secret (github)" }),
    ];
    let basis = read.basis;
    const current = read.state!;
    for (const change of changes) {
      change(current);
      basis = await saveSyncState(memoryDir, current, basis);
      expect(await readFile(syncStateFile(memoryDir), "utf8")).toBe(serializeSyncState(current));
      expect((await readSyncState(memoryDir)).state).toEqual(current);
    }
  });

  it("reads a state a hand edit reordered or gave a duplicate key, and one whose text holds the tables' key inside a string", async () => {
    const state = stateWithFiles();
    const { files, seen, ...rest } = JSON.parse(serializeSyncState(state)) as Record<string, unknown>;
    await writeFile(syncStateFile(memoryDir), JSON.stringify({ files, seen, ...rest }, null, 2));
    expect((await readSyncState(memoryDir)).state).toEqual(state);
    // A duplicate key: JSON takes the last one, and a save keeps reading the same.
    const text = serializeSyncState(state);
    await writeFile(syncStateFile(memoryDir), text.replace(/\}\n$/, ',"files":[]}\n'));
    const duplicated = await readSyncState(memoryDir);
    expect(duplicated.state!.files).toEqual({});
    duplicated.state!.syncedAt = "2026-12-01T13:00:00.000Z";
    await saveSyncState(memoryDir, duplicated.state!, duplicated.basis);
    expect((await readSyncState(memoryDir)).state).toEqual(duplicated.state);
    state.outbox[0]!.content = '---\nname: ,"files":[ in a body\n---\n';
    await saveSyncState(memoryDir, state);
    expect((await readSyncState(memoryDir)).state).toEqual(state);
  });

  it("keeps what waits from a file cut short in its tables (the queue and tombstones come first), and asks for a full comparison", async () => {
    const state = stateWithFiles();
    state.tombstones = { "project_gone.md": { deletedAt: "2026-12-01T10:00:00.000Z", blob: blob("9") } };
    const text = serializeSyncState(state);
    await writeFile(syncStateFile(memoryDir), text.slice(0, text.indexOf('"seen":') + 12));
    const read = await readSyncState(memoryDir);
    expect(read.problem).toMatch(/damaged past its queue/);
    expect(read.state).toEqual({ ...state, files: {}, seen: {}, needsFullComparison: true });
    // Cut inside the head itself: nothing can be trusted.
    await writeFile(syncStateFile(memoryDir), text.slice(0, text.indexOf('"outbox":') + 20));
    expect(await readSyncState(memoryDir)).toMatchObject({ state: null, problem: "the sync state file is damaged" });
  });

  it("names a damaged or unknown-format file instead of using it", async () => {
    await writeFile(syncStateFile(memoryDir), JSON.stringify({ ...JSON.parse(JSON.stringify(stateWithFiles())), version: 2, files: [["a.md", 5]] }));
    expect(await readSyncState(memoryDir)).toMatchObject({ state: null, problem: "the sync state file is damaged" });
    await writeFile(syncStateFile(memoryDir), JSON.stringify({ version: 9 }));
    expect((await readSyncState(memoryDir)).problem).toContain("format 9");
  });
});

describe("the sync state's head (the prompt hook's read)", () => {
  const headOfState = (state: SyncState) => ({ server: state.server, projectId: state.projectId, syncedCommit: state.syncedCommit });

  it("is what the whole read gives, for a saved state, one never synced, and names that need escaping", async () => {
    for (const state of [stateWithFiles(), emptySyncState("https://teammem.example/", "acme-checkout"), { ...stateWithFiles(), server: 'http://h/"q"\\\u00e9', projectId: "acme \u2028 checkout" }]) {
      await saveSyncState(memoryDir, state);
      expect(await readSyncHead(memoryDir)).toEqual(headOfState((await readSyncState(memoryDir)).state!));
      // From the file's beginning alone, not the fallback: the whole read is what the head read saves.
      expect(headOf((await readFile(syncStateFile(memoryDir), "utf8")).slice(0, 300))).toEqual(headOfState(state));
    }
  });

  it("reads a format-1 state and a head past its first bytes the whole way, and has none without a usable state", async () => {
    const state = stateWithFiles();
    await writeFile(syncStateFile(memoryDir), JSON.stringify({ ...state, version: 1 }));
    expect(await readSyncHead(memoryDir)).toEqual(headOfState(state));
    const longServer = { ...state, server: `https://teammem.example/${"x".repeat(5_000)}` };
    await saveSyncState(memoryDir, longServer);
    expect(await readSyncHead(memoryDir)).toEqual(headOfState(longServer));
    await writeFile(syncStateFile(memoryDir), '{"version":2,"server":"http://h","projectId":"p","syncedCommit":"not-a-commit",');
    expect(await readSyncHead(memoryDir)).toBeNull();
    await rm(syncStateFile(memoryDir));
    expect(await readSyncHead(memoryDir)).toBeNull();
  });
});
