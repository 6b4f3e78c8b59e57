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
 * A memory must share words with the prompt that together say as much as one word found in
 * ~15% of the memories (their IDF summed; a weak English word counts for half): one word common
 * in this directory ("payment" in a payments team's store) cannot carry a match alone, but the
 * project's own vocabulary plus one more word can ("dbt" is in a fifth of a dbt team's memories;
 * "dbt run" must still find the memory about the slow dbt run). A hard cut-off at 10% once made
 * "dbt" useless however the rest of the prompt matched, and made "snowflake" (4 of 39 memories)
 * find nothing until one unrelated memory was added.
 */
const COMMON_SHARE = 0.15;
const WEAK_TERM_SHARE = 0.5;
/** See bringsSomethingNew: a third memory matching only what the first two matched must be this close to the best. */
const MIN_SHARE_OF_TOP_TO_REPEAT = 0.8;
/** A recent tool counts for less than a word of the prompt: it says what the agent does, not what it asks. */
const TOOL_TERM_BOOST = 0.5;
/** A synonym the prompt did not write counts for less than the word it did. */
const SYNONYM_BOOST = 0.5;
/**
 * Recency breaks near-ties, more strongly the older a memory is than the newest one: its score is
 * divided by (1 + age in months) to this power: ~7% off at 3 months, ~12% at a year. A memory
 * describes the moment it was written (A2); of two that match alike the newer one is likelier
 * true.
 */
const AGE_PENALTY = 0.05;
/** Two memories whose name and description words overlap this much (IDF-weighted) are one topic told twice. */
const NEAR_DUPLICATE = 0.75;
/**
 * A newer memory sharing this much with an older one replaces it when it says so (RETIREMENT_WORDS).
 * Not "instead of": that is how rules are written ("a real database instead of mocks").
 */
const SAME_TOPIC = 0.3;
const RETIREMENT_WORDS =
  /\b(retired|replaced|replaces|superseded|supersedes|decommissioned|deprecated|obsolete|no longer|moved (from|off|away)|migrated (from|off|away)|moving (from|off|away)|phased out|(was|were|is|are|been) removed|sunset)\b/i;
const MONTH_MS = 30 * 86_400_000;
/** Scores within ~10% of each other (after the age penalty) count as a tie, broken by recency. */
const TIE_BUCKET = Math.log(1.1);

/**
 * The embedded selector and the model's fallback: BM25 full-text (MiniSearch) over description,
 * name, file name and type, with prefix matches for longer words and one typo allowed in long
 * ones (never for weak English words: "back" once found "backend"). Synonyms join the query at
 * half weight. Recent tools join it at half weight so their warnings can surface (R2), while
 * usage references for them are dropped. A newer memory that replaces a matched older one takes
 * its place. Keeps at most five above a relevance threshold; the matched query words are the
 * reason.
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
  const { isRelevant, top, topicCount } = relevanceTest({ index, results, queryTerms, toolTerms, synonymTerms });
  const added = { toolTerms, synonymTerms };
  const candidates = results.map((result) => toCandidate(result, memories, added));
  const relevant = preferNewer({ index, memories, relevant: candidates.filter((_, position) => isRelevant(results[position]!)), all: candidates, top });
  const ageOf = (memory: RankableMemory) => Math.max(0, index.newestMtime - memory.mtime.getTime());
  relevant.sort((a, b) => compareCandidates(a, b, ageOf));
  const ranked: RankedMemory[] = [];
  const dropped: DroppedMemory[] = [];
  for (const { ranked: candidate, evidence } of relevant) {
    if (isToolInUseReference(candidate.memory, recentTools)) dropped.push({ file: candidate.memory.path, reason: "tool-in-use" });
    // Not listed as dropped: it adds nothing to what was chosen, like any memory below the
    // floor. A tool's warning is exempt (R2), and so is a prompt of one topical word, where
    // nothing new can be brought.
    else if (ranked.length >= 2 && topicCount > 1 && candidate.matchedTools.length === 0 && !bringsSomethingNew(candidate, ranked) && evidence < top * MIN_SHARE_OF_TOP_TO_REPEAT) continue;
    else if (ranked.length >= MAX_SELECTED) dropped.push({ file: candidate.memory.path, reason: "over-five" });
    else ranked.push(candidate);
  }
  return { ranked, dropped };
}

/**
 * R2, "be choosy": past the first two, a memory must bring a word of the prompt that the ones
 * chosen before it did not, or match nearly as well as the best (MIN_SHARE_OF_TOP_TO_REPEAT). The
 * third to fifth slots once filled with memories sharing one generic word with the first ("test",
 * "api"); a prompt naming several topics still gets one memory for each.
 */
function bringsSomethingNew(candidate: RankedMemory, chosen: readonly RankedMemory[]): boolean {
  const covered = new Set(chosen.flatMap((entry) => entry.matchedTerms));
  return candidate.matchedTerms.some((term) => !isWeakSearchTerm(term) && !covered.has(term));
}

type RelevanceOptions = {
  index: LocalIndex;
  results: SearchResult[];
  queryTerms: ReadonlySet<string>;
  toolTerms: ReadonlySet<string>;
  synonymTerms: ReadonlySet<string>;
};

/**
 * Whether a result is worth handing to the agent. A memory that names a recent tool is held to
 * the floor at the tool's weight (R2: its warnings must surface); one found through the prompt
 * alone must also stay near the best prompt match and cover enough of the prompt. Either way
 * weak English words, numbers, or one word common in this directory cannot carry it alone.
 */
function relevanceTest({ index, results, queryTerms, toolTerms, synonymTerms }: RelevanceOptions): { isRelevant: (result: SearchResult) => boolean; top: number; topicCount: number } {
  const floor = MIN_EVIDENCE_IN_RARE_WORDS * bm25Idf(1, index.size);
  const isToolOnly = (result: SearchResult) => result.queryTerms.every((term) => toolTerms.has(term));
  const hasTool = (result: SearchResult) => result.queryTerms.some((term) => toolTerms.has(term));
  const top = Math.max(0, ...results.filter((result) => !isToolOnly(result)).map(evidence));
  // Counted over the results, so a prompt word weighs what it found, prefix and typo matches
  // included ("roll" finds "rollback"), not only memories that hold it as written.
  const foundBy = new Map<string, number>();
  for (const result of results) for (const term of result.queryTerms) foundBy.set(term, (foundBy.get(term) ?? 0) + 1);
  const idfOf = (term: string) => {
    const count = foundBy.get(term) ?? 0;
    return count === 0 ? 0 : bm25Idf(count, index.size);
  };
  const weightOf = (term: string) => (isWeakSearchTerm(term) ? 0 : idfOf(term));
  const weights = [...queryTerms].map(weightOf);
  const promptWeight = weights
    .sort((a, b) => b - a)
    .slice(0, MAX_SELECTED)
    .reduce((sum, weight) => sum + weight, 0);
  const commonWordWeight = bm25Idf(Math.max(2, index.size * COMMON_SHARE), index.size);
  const informationOf = (result: SearchResult) =>
    [...new Set(result.queryTerms)].reduce((sum, term) => sum + idfOf(term) * (isWeakSearchTerm(term) ? WEAK_TERM_SHARE : 1) * (synonymTerms.has(term) ? SYNONYM_BOOST : 1), 0);
  const isRelevant = (result: SearchResult) => {
    if (!result.queryTerms.some((term) => !isWeakSearchTerm(term)) || informationOf(result) < commonWordWeight) return false;
    if (hasTool(result) && evidence(result) >= floor * TOOL_TERM_BOOST) return true;
    if (isToolOnly(result)) return false;
    const covered = result.queryTerms.filter((term) => queryTerms.has(term)).reduce((sum, term) => sum + weightOf(term), 0);
    // A synonym helps a memory the prompt found; it does not find one by itself.
    if (covered === 0) return false;
    return evidence(result) >= floor && evidence(result) >= top * MIN_SHARE_OF_TOP && covered >= promptWeight * MIN_QUERY_COVERAGE;
  };
  return { isRelevant, top, topicCount: weights.filter((weight) => weight > 0).length };
}

/** MiniSearch's BM25 IDF for a word that occurs in `count` of `size` memories. */
function bm25Idf(count: number, size: number): number {
  return Math.log(1 + (size - count + 0.5) / (count + 0.5));
}

function evidence(result: SearchResult): number {
  return result.score / Math.max(1, result.queryTerms.length);
}

type Candidate = { id: number; ranked: RankedMemory; evidence: number; promptTerms: string[] };

type AddedTerms = { toolTerms: ReadonlySet<string>; synonymTerms: ReadonlySet<string> };

// The reason names the words of the prompt and the tools; a synonym only helped the order.
function toCandidate(result: SearchResult, memories: readonly RankableMemory[], { toolTerms, synonymTerms }: AddedTerms): Candidate {
  const id = Number(result.id);
  const memory = memories[id];
  if (!memory) throw new Error(`minisearch returned an unknown id ${String(result.id)}`);
  const matched = [...new Set(result.queryTerms)];
  const promptTerms = matched.filter((term) => !toolTerms.has(term) && !synonymTerms.has(term));
  const matchedTools = matched.filter((term) => toolTerms.has(term));
  return { id, ranked: { memory, score: result.score, matchedTerms: promptTerms, matchedTools }, evidence: evidence(result), promptTerms };
}

/**
 * Two memories the prompt found by the same word and about the same thing (their name and
 * description words mostly shared, by IDF): the newer one comes first, with the better score of
 * the two, and the older one stays only if it matches as well as the best match or brings a word
 * of the prompt the newer one lacks. When the newer one says it retired what the older one
 * describes ("moved from Redshift to Snowflake; Redshift is decommissioned", sharing a third of
 * its words), it takes the older one's place even when it fell short of the thresholds itself,
 * and the older one stays only for a word of the prompt the newer one lacks. Otherwise a user
 * asking how to deploy was told the retired way first, or only the retired way.
 */
function preferNewer({ index, memories, relevant, all, top }: PreferNewerOptions): Candidate[] {
  const chosen = new Map(relevant.map((candidate) => [candidate.id, candidate]));
  const idf = (term: string) => (isWeakSearchTerm(term) ? 0 : bm25Idf(index.documentFrequency.get(term) ?? 0, index.size));
  for (const older of relevant) {
    const found = findReplacement(older);
    if (!found) continue;
    const { newer, replacement } = found;
    const kept = chosen.get(newer.id);
    if (!kept && replacement !== "retires") continue;
    const base = kept ?? newer;
    chosen.set(newer.id, { ...base, ranked: { ...base.ranked, score: Math.max(base.ranked.score, older.ranked.score) } });
    const addsNothing = older.promptTerms.every((term) => isWeakSearchTerm(term) || newer.promptTerms.includes(term));
    if (addsNothing && (replacement === "retires" || older.evidence < top * MIN_SHARE_OF_TOP_TO_REPEAT)) chosen.delete(older.id);
  }
  return [...chosen.values()];

  function findReplacement(older: Candidate): { newer: Candidate; replacement: Exclude<Replacement, "none"> } | null {
    for (const other of all) {
      if (other.ranked.memory.mtime.getTime() <= older.ranked.memory.mtime.getTime() || !other.promptTerms.some((term) => older.promptTerms.includes(term))) continue;
      const replacement = replacementOf(other.id, older.id);
      if (replacement !== "none") return { newer: other, replacement };
    }
    return null;
  }

  function replacementOf(newerId: number, olderId: number): Replacement {
    const overlap = topicOverlap(index.summaryTerms[newerId], index.summaryTerms[olderId], idf);
    const newer = memories[newerId];
    if (overlap >= SAME_TOPIC && RETIREMENT_WORDS.test(`${newer?.name ?? ""} ${newer?.description ?? ""}`)) return "retires";
    return overlap >= NEAR_DUPLICATE ? "repeats" : "none";
  }
}

type Replacement = "none" | "repeats" | "retires";

type PreferNewerOptions = { index: LocalIndex; memories: readonly RankableMemory[]; relevant: Candidate[]; all: readonly Candidate[]; top: number };

/** The IDF-weighted share of the smaller word set found in the other: 1 when one says all the other does. */
function topicOverlap(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined, idf: (term: string) => number): number {
  if (!a || !b) return 0;
  let shared = 0;
  let weightA = 0;
  let weightB = 0;
  for (const term of a) {
    weightA += idf(term);
    if (b.has(term)) shared += idf(term);
  }
  for (const term of b) weightB += idf(term);
  const smaller = Math.min(weightA, weightB);
  return smaller > 0 ? shared / smaller : 0;
}

function compareCandidates(a: Candidate, b: Candidate, ageOf: (memory: RankableMemory) => number): number {
  const keyOf = (candidate: Candidate) => Math.log(candidate.ranked.score) - AGE_PENALTY * Math.log(1 + ageOf(candidate.ranked.memory) / MONTH_MS);
  const bucketA = Math.floor(keyOf(a) / TIE_BUCKET);
  const bucketB = Math.floor(keyOf(b) / TIE_BUCKET);
  return bucketB - bucketA || b.ranked.memory.mtime.getTime() - a.ranked.memory.mtime.getTime() || compareCodeUnits(a.ranked.memory.path, b.ranked.memory.path);
}
