import type { SearchResult } from "minisearch";
import { buildLocalIndex, processedTerms, type LocalIndex, type RankableMemory } from "./build-local-index";
import type { DroppedMemory } from "./dropped-memory";
import { expandSearchSynonyms } from "./expand-search-synonyms";
import { isWeakSearchTerm } from "./is-weak-search-term";
import { isToolInUseReference, toolSearchWords } from "./is-tool-in-use-reference";
import { MAX_SELECTED } from "./validate-selection";
import { compareCodeUnits } from "../memdir/compare-code-units";

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
const MIN_EVIDENCE_IN_RARE_WORDS = 3.5;
/** A memory far behind the best match is noise next to it, even above the floor. */
const MIN_SHARE_OF_TOP = 0.25;
/**
 * A memory must match a fifth of what the prompt says: the prompt's informative words (not weak
 * English, found in some memory) weighed by their IDF, its five weightiest at most, so a prompt
 * that names many topics still finds one memory per topic, as many as recall can hand over. One
 * generic word of a specific prompt ("check", "production") no longer carries a memory alone.
 */
const MIN_QUERY_COVERAGE = 0.2;
/**
 * A word found in more than ~10% of the memories ("invoice" in an invoicing team's store) says
 * little on its own: a memory must share at least one rarer word with the query to be relevant.
 */
const MAX_COMMON_SHARE = 0.1;
/** A recent tool counts for less than a word of the prompt: it says what the agent does, not what it asks. */
const TOOL_TERM_BOOST = 0.5;
/** A synonym the prompt did not write counts for less than the word it did. */
const SYNONYM_BOOST = 0.5;
/** Scores within ~10% of each other count as a tie, broken by recency (newer first). */
const TIE_BUCKET = Math.log(1.1);

/**
 * The embedded selector and the model's fallback: BM25 full-text (MiniSearch) over description,
 * name, file name and type, with prefix matches for longer words and one typo allowed in long
 * ones (never for weak English words: "back" once found "backend"). Synonyms join the query at
 * half weight. Recent tools join it at half weight so their warnings can surface (R2), while
 * usage references for them are dropped. Keeps at most five above a relevance threshold; the
 * matched query words are the reason.
 */
export function rankMemoriesLocally(memories: readonly RankableMemory[], query: string, recentTools: readonly string[] = []): LocalRanking {
  const index = buildLocalIndex(memories);
  const queryTerms = new Set(processedTerms(query));
  const toolTerms = new Set(toolSearchWords(recentTools).flatMap(processedTerms).filter((term) => !queryTerms.has(term)));
  const synonyms = expandSearchSynonyms(queryTerms).filter((synonym) => !toolTerms.has(synonym.term));
  const synonymTerms = new Set(synonyms.map((synonym) => synonym.term));
  const results = index.search.search([query, ...toolTerms, ...synonyms.map((synonym) => synonym.word)].join(" "), {
    boost: FIELD_BOOSTS,
    boostTerm: (term) => (toolTerms.has(term) ? TOOL_TERM_BOOST : synonymTerms.has(term) ? SYNONYM_BOOST : 1),
    prefix: (term) => term.length >= 4 && !isWeakSearchTerm(term),
    fuzzy: (term) => (term.length >= 6 && !isWeakSearchTerm(term) ? 1 : false),
    weights: { prefix: 0.5, fuzzy: 0.3 },
  });
  const isRelevant = relevanceTest({ index, results, queryTerms, toolTerms });
  const relevant = results
    .filter(isRelevant)
    .map((result) => toRanked(result, memories, { toolTerms, synonymTerms }))
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

type RelevanceOptions = { index: LocalIndex; results: SearchResult[]; queryTerms: ReadonlySet<string>; toolTerms: ReadonlySet<string> };

/**
 * Whether a result is worth handing to the agent. A memory that names a recent tool is held to
 * the floor at the tool's weight (R2: its warnings must surface); one found through the prompt
 * alone must also stay near the best prompt match and cover enough of the prompt. Either way a
 * weak English word or a word common in this directory cannot carry it alone.
 */
function relevanceTest({ index, results, queryTerms, toolTerms }: RelevanceOptions): (result: SearchResult) => boolean {
  const floor = MIN_EVIDENCE_IN_RARE_WORDS * bm25Idf(1, index.size);
  const isToolOnly = (result: SearchResult) => result.queryTerms.every((term) => toolTerms.has(term));
  const hasTool = (result: SearchResult) => result.queryTerms.some((term) => toolTerms.has(term));
  const top = Math.max(0, ...results.filter((result) => !isToolOnly(result)).map(evidence));
  const maxCommonCount = Math.max(2, index.size * MAX_COMMON_SHARE);
  const isDistinctive = (term: string) => (index.documentFrequency.get(term) ?? 0) <= maxCommonCount;
  // Counted over the results, so a prompt word weighs what it found, prefix and typo matches
  // included ("roll" finds "rollback"), not only memories that hold it as written.
  const foundBy = new Map<string, number>();
  for (const result of results) for (const term of result.queryTerms) foundBy.set(term, (foundBy.get(term) ?? 0) + 1);
  const weightOf = (term: string) => {
    const count = foundBy.get(term) ?? 0;
    return count === 0 || isWeakSearchTerm(term) ? 0 : bm25Idf(count, index.size);
  };
  const promptWeight = [...queryTerms]
    .map(weightOf)
    .sort((a, b) => b - a)
    .slice(0, MAX_SELECTED)
    .reduce((sum, weight) => sum + weight, 0);
  return (result) => {
    if (!result.terms.some(isDistinctive) || !result.queryTerms.some((term) => !isWeakSearchTerm(term))) return false;
    if (hasTool(result) && evidence(result) >= floor * TOOL_TERM_BOOST) return true;
    if (isToolOnly(result)) return false;
    const covered = result.queryTerms.filter((term) => queryTerms.has(term)).reduce((sum, term) => sum + weightOf(term), 0);
    // A synonym helps a memory the prompt found; it does not find one by itself.
    if (covered === 0) return false;
    return evidence(result) >= floor && evidence(result) >= top * MIN_SHARE_OF_TOP && covered >= promptWeight * MIN_QUERY_COVERAGE;
  };
}

/** MiniSearch's BM25 IDF for a word that occurs in `count` of `size` memories. */
function bm25Idf(count: number, size: number): number {
  return Math.log(1 + (size - count + 0.5) / (count + 0.5));
}

function evidence(result: SearchResult): number {
  return result.score / Math.max(1, result.queryTerms.length);
}

type AddedTerms = { toolTerms: ReadonlySet<string>; synonymTerms: ReadonlySet<string> };

// The reason names the words of the prompt and the tools; a synonym only helped the order. A
// memory found through a recent tool alone (its known problem, R2) names the tool instead: its
// reason was once an empty "matched: ".
function toRanked(result: SearchResult, memories: readonly RankableMemory[], { toolTerms, synonymTerms }: AddedTerms): RankedMemory {
  const memory = memories[Number(result.id)];
  if (!memory) throw new Error(`minisearch returned an unknown id ${String(result.id)}`);
  const matched = [...new Set(result.queryTerms)];
  const promptTerms = matched.filter((term) => !toolTerms.has(term) && !synonymTerms.has(term));
  const matchedTools = matched.filter((term) => toolTerms.has(term));
  return { memory, score: result.score, matchedTerms: promptTerms.length > 0 ? promptTerms : matchedTools.map((tool) => `${tool} (tool in use)`), matchedTools };
}

function byScoreThenRecency(a: RankedMemory, b: RankedMemory): number {
  const bucketA = Math.floor(Math.log(a.score) / TIE_BUCKET);
  const bucketB = Math.floor(Math.log(b.score) / TIE_BUCKET);
  return bucketB - bucketA || b.memory.mtime.getTime() - a.memory.mtime.getTime() || compareCodeUnits(a.memory.path, b.memory.path);
}
