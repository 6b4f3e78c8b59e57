import MiniSearch from "minisearch";
import type { MemoryType } from "../memdir/frontmatter";
import { normaliseSearchTerm } from "./normalise-search-term";

export type RankableMemory = { path: string; name: string | null; description: string | null; type: MemoryType | null; mtime: Date };

export type IndexedMemory = { id: number; name: string; description: string; type: string; file: string };

export type LocalIndex = {
  search: MiniSearch<IndexedMemory>;
  /** In how many memories each normalised word occurs (any field). */
  documentFrequency: ReadonlyMap<string, number>;
  /** Each memory's words of its name and description, by id: what tells two memories apart as topics. */
  summaryTerms: readonly ReadonlySet<string>[];
  /** The newest modification time in the set: ages are counted from it, so a ranking never depends on the clock. */
  newestMtime: number;
  size: number;
};

export const INDEXED_FIELDS = ["description", "name", "file", "type"] as const;

/** Recall runs once per prompt over a directory that rarely changes between prompts. */
const CACHE_SIZE = 8;
const cache = new Map<string, LocalIndex>();

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** Tokenised and normalised exactly as the index does it. */
export function processedTerms(text: string): string[] {
  return tokenize(text).flatMap((token) => normaliseSearchTerm(token) ?? []);
}

/**
 * The ranker matches on crude stems ("databas"): each term of a text, tokenised as the index
 * does it, with the first word that gave it as written (lower case), for reasons people read.
 */
export function spokenWordsByTerm(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const token of tokenize(text)) {
    const term = normaliseSearchTerm(token);
    if (term && !words.has(term)) words.set(term, token.toLowerCase());
  }
  return words;
}

/**
 * The full-text index over these memories, built once per distinct set (paths, mtimes and the
 * indexed fields): a 200-memory build costs a few milliseconds, a query on it a tenth of one.
 * Ids are positions in `memories`.
 */
export function buildLocalIndex(memories: readonly RankableMemory[]): LocalIndex {
  // The server hands the same memory objects to every recall at one store commit: comparing
  // them costs microseconds, where hashing 200 of them cost ~0.4 ms per recall. Sound because a
  // memory object is never changed in place: a scan or a new commit makes new ones.
  if (lastBuilt && isSameObjects(lastBuilt.memories, memories)) return lastBuilt.index;
  const key = cacheKey(memories);
  let index = cache.get(key);
  if (index) {
    cache.delete(key); // re-insert: Map order is the LRU order
  } else {
    index = createIndex(memories);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value ?? "");
  }
  cache.set(key, index);
  lastBuilt = { memories: [...memories], index };
  return index;
}

let lastBuilt: { memories: readonly RankableMemory[]; index: LocalIndex } | null = null;

function isSameObjects(a: readonly RankableMemory[], b: readonly RankableMemory[]): boolean {
  if (a.length !== b.length) return false;
  for (let position = 0; position < a.length; position++) if (a[position] !== b[position]) return false;
  return true;
}

function createIndex(memories: readonly RankableMemory[]): LocalIndex {
  const documentFrequency = new Map<string, number>();
  // Counted from the terms MiniSearch makes while it indexes a memory: tokenising every field a
  // second time for the count was a fifth of a fresh `teammem recall`'s ranking.
  let termsOfDocument = new Set<string>();
  let summaryOfDocument = new Set<string>();
  const summaryTerms: Set<string>[] = [];
  const collectTerm = (token: string, field?: string) => {
    const term = normaliseSearchTerm(token);
    if (term) termsOfDocument.add(term);
    if (term && (field === "name" || field === "description")) summaryOfDocument.add(term);
    return term;
  };
  const search = new MiniSearch<IndexedMemory>({ fields: [...INDEXED_FIELDS], processTerm: collectTerm, searchOptions: { processTerm: normaliseSearchTerm } });
  for (const [position, memory] of memories.entries()) {
    termsOfDocument = new Set();
    summaryOfDocument = new Set();
    search.add(toDocument(memory, position));
    for (const term of termsOfDocument) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    summaryTerms.push(summaryOfDocument);
  }
  const newestMtime = Math.max(0, ...memories.map((memory) => memory.mtime.getTime()));
  return { search, documentFrequency, summaryTerms, newestMtime, size: memories.length };
}

function toDocument(memory: RankableMemory, index: number): IndexedMemory {
  return { id: index, name: memory.name ?? "", description: memory.description ?? "", type: memory.type ?? "", file: memory.path.replace(/\.md$/, "") };
}

// The fields themselves, not a hash of them: `node:crypto` took ~8 ms to load, a fifth of what
// `teammem recall` adds to a scan, and eight keys of ~50 KB are nothing to keep.
function cacheKey(memories: readonly RankableMemory[]): string {
  return JSON.stringify(memories.map((memory) => [memory.path, memory.mtime.getTime(), memory.type, memory.name, memory.description]));
}
