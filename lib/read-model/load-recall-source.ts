import type { Config } from "../config";
import type { Db } from "../db/client";
import { isMemoryType } from "../memdir/frontmatter";
import { MAX_MEMORY_FILES, type ScannedMemory } from "../memdir/scan-memory-dir";
import { OVER_LIMIT_NAMED } from "../recall/dropped-memory";
import type { ScannedSource } from "../recall/recall-memories";
import { log } from "../log";
import { ensureProjectFreshness, REFRESH_AFTER_MS } from "../stale/load-project-freshness";
import { readStaleDoubtsOf } from "../stale/read-stale-doubts";
import { readBlobs } from "../store/git";
import { refreshStore } from "../store/read-store";
import { ensureReadModel } from "./ensure-read-model";

const BLOB_CACHE_SIZE = 2_000;

type Candidates = { commit: string | null; memories: ScannedMemory[]; blobs: Map<string, string> };

// Per instance, keyed by the read model's commit: several instances stay correct because a
// commit anywhere moves the recorded commit in the shared database.
const candidatesByProject = new Map<string, Candidates>();
// Blob ids name their content, so a cached text is never stale.
const blobTexts = new Map<string, string>();

/**
 * What recall needs of a team project, from the read model instead of a scan of its files: the
 * newest memories as Claude Code's scan would list them (S4), and each selected file's text from
 * its blob. Cost does not grow with the project: a query for ~220 rows when the store moved,
 * nothing otherwise.
 */
export async function loadRecallSource(config: Config, db: Db, projectId: string): Promise<ScannedSource> {
  const { commit } = await ensureReadModel(config, db);
  let candidates = candidatesByProject.get(projectId);
  if (!candidates || candidates.commit !== commit) {
    const rows = await db.storeMemory.findMany({
      where: { projectId },
      orderBy: [{ changedAt: "desc" }, { path: "asc" }],
      take: MAX_MEMORY_FILES + OVER_LIMIT_NAMED,
      select: { path: true, name: true, description: true, type: true, changedAt: true, bodyBytes: true, blob: true },
    });
    candidates = {
      commit,
      memories: rows.map((row) => ({ path: row.path, name: row.name, description: row.description, type: isMemoryType(row.type) ? row.type : null, mtime: row.changedAt, size: row.bodyBytes, frontmatter: "ok" })),
      blobs: new Map(rows.map((row) => [row.path, row.blob])),
    };
    candidatesByProject.set(projectId, candidates);
  }
  keepFreshnessCurrent(config, db, projectId, commit);
  const { blobs } = candidates;
  return { memories: candidates.memories, readText: (file) => readBlobText(config, blobs.get(file) ?? null), readDoubts: doubtsInOneQuery(db, projectId) };
}

// When this instance last asked for a project's staleness checks, and at which store commit.
const freshnessAskedAt = new Map<string, { commit: string | null; at: number }>();

/**
 * A recall's injections carry the staleness checks' doubts, but those checks ran only when a
 * page or the freshness API read them: a stale memory reached agents without its warning until
 * someone opened the dashboard. Recall now asks for them, behind its answer (never awaited), once
 * per store commit and again when they are older than a page would accept.
 */
function keepFreshnessCurrent(config: Config, db: Db, projectId: string, commit: string | null): void {
  const asked = freshnessAskedAt.get(projectId);
  if (asked && asked.commit === commit && Date.now() - asked.at < REFRESH_AFTER_MS) return;
  freshnessAskedAt.set(projectId, { commit, at: Date.now() });
  // A moment later, not on this recall's tick: the recalls that follow a commit come in a burst,
  // and the check (only changed files cost anything) then runs after them. Never keeps a process alive.
  setTimeout(() => {
    void ensureProjectFreshness(config, db, projectId).catch((error: unknown) => log("warn", "stale.recall_refresh_failed", { projectId, name: (error as Error)?.name ?? "unknown" }));
  }, FRESHNESS_DELAY_MS).unref();
}

const FRESHNESS_DELAY_MS = 1_000;

/**
 * readDoubts for one recall: the files asked for in the same tick (recall formats its up-to-five
 * injections together) are read with one query instead of one each.
 */
function doubtsInOneQuery(db: Db, projectId: string): (file: string) => Promise<string[]> {
  let batch: { files: string[]; answer: Promise<Map<string, string[]>> } | null = null;
  return async (file) => {
    if (!batch) {
      const files: string[] = [];
      const answer = new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => {
        batch = null;
        return readStaleDoubtsOf(db, projectId, files);
      });
      batch = { files, answer };
    }
    batch.files.push(file);
    return (await batch.answer).get(file) ?? [];
  };
}

async function readBlobText(config: Config, blob: string | null): Promise<string | null> {
  if (blob === null) return null;
  const cached = blobTexts.get(blob);
  if (cached !== undefined) return cached;
  let text = (await readBlobs(config.storeCloneDir, [blob])).get(blob);
  if (text === undefined) {
    // Another instance committed it and this clone has not fetched yet.
    await refreshStore(config, { force: true });
    text = (await readBlobs(config.storeCloneDir, [blob])).get(blob);
  }
  if (text === undefined) return null;
  blobTexts.set(blob, text);
  if (blobTexts.size > BLOB_CACHE_SIZE) blobTexts.delete(blobTexts.keys().next().value ?? "");
  return text;
}
