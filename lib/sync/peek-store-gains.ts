import type { ApiTarget } from "../client/teammem-api";
import { isAppError } from "../errors";
import type { SyncAnswer } from "../member-sync/sync-answer";
import { fetchSyncAnswer, fetchSyncPage, type FetchSyncOptions } from "./sync-api";

/** The store's index: it changes with every memory added or retired, but is not a memory (S1). */
const INDEX = "MEMORY.md";
/** At most this many restarts when the store moves while pages are read. */
const RESTARTS = 3;

/** Memories the store changed (added or edited) and removed since the last sync. */
export type StoreGains = { changed: number; removed: number };

export type PeekStoreGainsOptions = Pick<FetchSyncOptions, "projectId" | "since" | "proposalIds" | "clientVersion">;

/**
 * What the store gained since `since`, counted in memories, for `teammem status`: a peek (the
 * server records nothing) with one file per page, so the page count is the number of changed
 * files without their contents. The server lists MEMORY.md among them when it changed; a
 * differential answer is in path order, so a few one-file pages found by halving say whether it
 * is there. A full listing counts memories only (the index rides along on page 1).
 */
export async function peekStoreGains(target: ApiTarget, options: PeekStoreGainsOptions): Promise<{ answer: SyncAnswer; gains: StoreGains }> {
  const pageOptions: FetchSyncOptions = { ...options, isPeek: true, pageSize: 1, isFirstPageOnly: true };
  for (let attempt = 0; ; attempt++) {
    const answer = await fetchSyncAnswer(target, pageOptions);
    try {
      return { answer, gains: await countGains(answer, (page) => fetchSyncPage(target, { ...pageOptions, proposalIds: [] }, page, answer.head)) };
    } catch (error) {
      if (!(isAppError(error) && error.code === "CONFLICT") || attempt >= RESTARTS) throw error;
    }
  }
}

async function countGains(first: SyncAnswer, fetchPage: (page: number) => Promise<SyncAnswer>): Promise<StoreGains> {
  const removed = first.removed.filter((filePath) => filePath !== INDEX).length;
  if (first.isUnchanged) return { changed: 0, removed };
  const onFirstPage = first.files.filter((file) => file.path !== INDEX).length;
  if (first.pageCount === 1) return { changed: onFirstPage, removed };
  if (first.full) return { changed: first.pageCount, removed };
  const pathAt = async (page: number) => (await fetchPage(page)).files[0]?.path ?? "";
  const isIndexListed = await listsPath(INDEX, { pageCount: first.pageCount, firstPath: first.files[0]?.path ?? "", pathAt });
  return { changed: first.pageCount - (isIndexListed ? 1 : 0), removed };
}

/**
 * Whether `wanted` is on one of the pages of a listing sorted as the server sorts it (JavaScript's
 * default order, UTF-16 code units), one path a page: a binary search, log2(pages) requests.
 */
async function listsPath(wanted: string, listing: { pageCount: number; firstPath: string; pathAt: (page: number) => Promise<string> }): Promise<boolean> {
  if (listing.firstPath >= wanted) return listing.firstPath === wanted;
  // Page `low` sorts before `wanted`; if listed, it is on a page in (low, high].
  let low = 1;
  let high = listing.pageCount;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const found = await listing.pathAt(middle);
    if (found === wanted) return true;
    if (found < wanted) low = middle;
    else high = middle - 1;
  }
  return false;
}
