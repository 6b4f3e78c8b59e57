import { normaliseSearchTerm } from "./normalise-search-term";

// Everyday English words that are not stop words but name no topic on their own: particles of
// phrasal verbs ("roll back", "set up"), generic action verbs and judgements of size, time and
// quality. "how do we roll back a bad deploy" once returned a memory whose only match was "back"
// ("falls back to the prod-us context") and a user profile through "backend". They still add to
// the score of a memory that matches a topical word too, but cannot carry a match alone. Kept
// apart from the stop words, which the duplicate finder shares and which drop words entirely.
const WEAK_WORDS = (
  "back away around along ahead aside forward " +
  "bad good great better best worse worst nice fine ok okay big small large little long short " +
  "old early late fast quick quickly slow right wrong real same different whole full main simple " +
  "first last next previous current latest " +
  "start stop run call put take keep go goes going come move change update fix break broke broken " +
  "turn open close set seem happen made " +
  "today yesterday tomorrow week weekend day days time times year month " +
  "lot lots bit part case kind sort place point stuff issue issues problem problems question " +
  "still already really actually maybe sure thanks thank yes yeah"
).split(" ");

const WEAK_TERMS = new Set(WEAK_WORDS.flatMap((word) => normaliseSearchTerm(word) ?? []));

/**
 * Whether a normalised query term cannot make a memory relevant alone: too common in English, or
 * a bare number. Numbers are the pieces of versions, times and dates ("1.23", "23:00",
 * "2026-05-15" tokenise to "23" and "15"): "bump Go to 1.23" once recalled a settlement cutoff at
 * "23:00". They still add to a memory that matches a word too.
 */
export function isWeakSearchTerm(term: string): boolean {
  return WEAK_TERMS.has(term) || /^\d+$/.test(term);
}
