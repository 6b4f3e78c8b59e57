import type { ApiTarget } from "../client/teammem-api";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { fetchSyncAnswer, type FetchSyncOptions } from "./sync-api";

/** The store's index: it changes with every memory added or retired, but is not a memory (S1). */
const INDEX = "MEMORY.md";

/** Memories the store changed (added or edited) and removed since the last sync. */
export type StoreGains = { changed: number; removed: number };

export type PeekStoreGainsOptions = Pick<FetchSyncOptions, "projectId" | "since" | "proposalIds" | "clientVersion">;

/**
 * What the store gained since `since`, counted in memories, for `teammem status`: one peek (the
 * server records nothing) of one file, whose answer counts the memories of the whole listing.
 * A server older than that count is answered with its page count (one file a page), which may
 * count the index too.
 */
export async function peekStoreGains(target: ApiTarget, options: PeekStoreGainsOptions): Promise<{ answer: SyncAnswer; gains: StoreGains }> {
  const answer = await fetchSyncAnswer(target, { ...options, isPeek: true, pageSize: 1, isFirstPageOnly: true });
  const removed = answer.removed.filter((filePath) => filePath !== INDEX).length;
  const changed = answer.isUnchanged ? 0 : (answer.changedMemories ?? answer.pageCount);
  return { answer, gains: { changed, removed } };
}
