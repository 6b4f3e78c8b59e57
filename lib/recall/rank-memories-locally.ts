import type { SearchResult } from "minisearch";
import { buildLocalIndex, processedTerms, type LocalIndex, type RankableMemory } from "./build-local-index";
import type { DroppedMemory } from "./dropped-memory";
import { isToolInUseReference, toolSearchWords } from "./is-tool-in-use-reference";
import { MAX_SELECTED } from "./validate-selection";

export type RankedMemory = { memory: RankableMemory; score: number; matchedTerms: string[]; matchedTools: string[] };

export type LocalRanking = { ranked: RankedMemory[]; dropped: DroppedMemory[] };

/**
 * F5 makes the description what recall selects on, so it weighs most; the name is a short title;
 * the file name (`feedback_real_db_in_tests`) mostly repeats both, so it counts half (at full
 * weight one word found in all three fields outranked rarer, better matches); the type only helps
 * a query that names one ("who is the user").
 */
const FIELD_BOOSTS = { description: 3, name: 2, file: 0.5, type: 0.5 };
/**
 * Thresholds apply to the BM25 evidence (MiniSearch's score divided by the number of query words
 * matched: MiniSearch multiplies by that count, which orders well but would let any two weak
 * matches clear a floor). The floor is counted in "rare words": the IDF of a word found in one
 * memory, which grows with ln(N), so a directory of 3 memories and one of 200 are held to the
 * same standard. A rare word in the description scores about 4.5 of them; a word found in a fifth
 * of the memories about 2; a rare word in the name alone about 3.
 */
const MIN_EVIDENCE_IN_RARE_WORDS = 3;
/** A memory far behind the best match is noise next to it, even above the floor. */
const MIN_SHARE_OF_TOP = 0.25;
/**
 * A word found in more than ~15% of the memories ("invoice" in an invoicing team's store) says
 * little on its own: a memory must share at least one rarer word with the query to be relevant.
 */
const MAX_COMMON_SHARE = 0.15;
/** A recent tool counts for less than a word of the prompt: it says what the agent does, not what it asks. */
const TOOL_TERM_BOOST = 0.5;
/** Scores within ~10% of each other count as a tie, broken by recency (newer first). */
const TIE_BUCKET = Math.log(1.1);

/**
 * The embedded selector and the model's fallback: BM25 full-text (MiniSearch) over description,
 * name, file name and type, with prefix matches for longer words and one typo allowed in long
 * ones. Recent tools join the query at half weight so their warnings can surface (R2), while
 * usage references for them are dropped. Keeps at most five above a relevance threshold; the
 * matched query words are the reason.
 */
export function rankMemoriesLocally(memories: readonly RankableMemory[], query: string, recentTools: readonly string[] = []): LocalRanking {
  const index = buildLocalIndex(memories);
  const queryTerms = new Set(processedTerms(query));
  const toolTerms = new Set(toolSearchWords(recentTools).flatMap(processedTerms).filter((term) => !queryTerms.has(term)));
  const results = index.search.search([query, ...toolTerms].join(" "), {
    boost: FIELD_BOOSTS,
    boostTerm: (term) => (toolTerms.has(term) ? TOOL_TERM_BOOST : 1),
    prefix: (term) => term.length >= 4,
    fuzzy: (term) => (term.length >= 6 ? 1 : false),
    weights: { prefix: 0.5, fuzzy: 0.3 },
  });
  const top = Math.max(0, ...results.map(evidence));
  const floor = MIN_EVIDENCE_IN_RARE_WORDS * rareWordIdf(index.size);
  const isDistinctive = distinctiveTermTest(index);
  const relevant = results
    .filter((result) => evidence(result) >= floor && evidence(result) >= top * MIN_SHARE_OF_TOP && result.terms.some(isDistinctive))
    .map((result) => toRanked(result, memories, toolTerms))
    .sort(byScoreThenRecency);
  const ranked: RankedMemory[] = [];
  const dropped: DroppedMemory[] = [];
  for (const candidate of relevant) {
    if (isToolInUseReference(candidate.memory, recentTools)) dropped.push({ file: candidate.memory.path, reason: "tool-in-use" });
    else if (ranked.length >= MAX_SELECTED) dropped.push({ file: candidate.memory.path, reason: "over-five" });
    else ranked.push(candidate);
  }
  return { ranked, dropped };
}

/** MiniSearch's BM25 IDF for a word that occurs in one of `count` memories. */
function rareWordIdf(count: number): number {
  return Math.log(1 + (count - 0.5) / 1.5);
}

function evidence(result: SearchResult): number {
  return result.score / Math.max(1, result.queryTerms.length);
}

function distinctiveTermTest(index: LocalIndex): (term: string) => boolean {
  const maxCount = Math.max(2, index.size * MAX_COMMON_SHARE);
  return (term) => (index.documentFrequency.get(term) ?? 0) <= maxCount;
}

function toRanked(result: SearchResult, memories: readonly RankableMemory[], toolTerms: ReadonlySet<string>): RankedMemory {
  const memory = memories[Number(result.id)];
  if (!memory) throw new Error(`minisearch returned an unknown id ${String(result.id)}`);
  const matched = [...new Set(result.queryTerms)];
  return { memory, score: result.score, matchedTerms: matched.filter((term) => !toolTerms.has(term)), matchedTools: matched.filter((term) => toolTerms.has(term)) };
}

function byScoreThenRecency(a: RankedMemory, b: RankedMemory): number {
  const bucketA = Math.floor(Math.log(a.score) / TIE_BUCKET);
  const bucketB = Math.floor(Math.log(b.score) / TIE_BUCKET);
  return bucketB - bucketA || b.memory.mtime.getTime() - a.memory.mtime.getTime() || a.memory.path.localeCompare(b.memory.path);
}
