import { z } from "zod";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { parseJsonOrNull } from "../parse-json";
import { loadDuplicateFinder } from "../review/load-duplicate-finder";
import { readBlobs } from "../store/git";
import type { DuplicateOf } from "./assess-freshness";
import { yieldToEventLoop } from "../yield-to-event-loop";

/** New or changed memories compared per refresh; the rest wait for the next one (each costs a search). */
export const MAX_DUPLICATE_CHECKS_PER_REFRESH = 300;

type Row = { path: string; blob: string; changedAt: Date };

const Stored = z.object({ blobs: z.record(z.string(), z.string()), pairs: z.record(z.string(), z.object({ path: z.string(), name: z.string().nullable(), similarity: z.number() })) });
type StoredDuplicates = z.infer<typeof Stored>;

/**
 * Which memories are near-duplicates of a newer one, with the review's duplicate finder. Kept
 * per project in SystemState and moved forward incrementally: only memories whose blob changed
 * since the last refresh are searched, since a pair changes only when one of its files does.
 */
export async function findProjectDuplicates(config: Config, db: Db, projectId: string, rows: Row[]): Promise<Map<string, DuplicateOf>> {
  const key = `stale-duplicates:${projectId}`;
  const saved = Stored.safeParse(parseJsonOrNull((await db.systemState.findUnique({ where: { key } }))?.value ?? ""));
  const state: StoredDuplicates = saved.success ? saved.data : { blobs: {}, pairs: {} };
  const byPath = new Map(rows.map((row) => [row.path, row]));
  const changed = rows.filter((row) => state.blobs[row.path] !== row.blob).sort((a, b) => b.changedAt.getTime() - a.changedAt.getTime());
  const gone = new Set([...Object.keys(state.blobs).filter((path) => !byPath.has(path)), ...changed.map((row) => row.path)]);
  for (const path of gone) delete state.blobs[path];
  for (const [path, pair] of Object.entries(state.pairs)) if (gone.has(path) || gone.has(pair.path)) delete state.pairs[path];
  const batch = changed.slice(0, MAX_DUPLICATE_CHECKS_PER_REFRESH);
  if (batch.length > 0) {
    const [finder, texts] = await Promise.all([loadDuplicateFinder(config, db, projectId), readBlobs(config.storeCloneDir, batch.map((row) => row.blob))]);
    for (const [index, row] of batch.entries()) {
      // Each search takes tens of ms at 10,000 memories: pages run between them.
      if (index > 0) await yieldToEventLoop();
      const text = texts.get(row.blob);
      if (text === undefined) continue;
      for (const candidate of finder.find(text, row.path)) {
        const other = byPath.get(candidate.path);
        if (!other) continue;
        const [older, newer] = other.changedAt <= row.changedAt ? [other, row] : [row, other];
        const current = state.pairs[older.path];
        if (!current || (byPath.get(current.path)?.changedAt ?? new Date(0)) < newer.changedAt) {
          state.pairs[older.path] = { path: newer.path, name: newer === row ? null : candidate.name, similarity: candidate.similarity };
        }
      }
      state.blobs[row.path] = row.blob;
    }
    const value = JSON.stringify(state);
    await db.systemState.upsert({ where: { key }, create: { key, value }, update: { value } });
  }
  return new Map(Object.entries(state.pairs));
}
