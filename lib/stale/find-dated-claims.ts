import { findRelativeDates } from "../memdir/find-relative-dates";
import { findAbsoluteDates, type AbsoluteDate } from "./find-absolute-dates";

/** A date a memory's truth hangs on: a deadline or window written as a date, or a relative date. */
export type DatedClaim = { kind: "deadline" | "relative"; date: string; phrase: string; line: number };

// Words that make a date a deadline or the edge of a window, not a record of when something
// happened, anywhere in the few words before it ("the freeze starts on …", "deadline is …").
// Past tenses ("released on", "shipped on") record what happened and are not among them.
const DEADLINE_WORDS = /\b(deadline|due|freeze|frozen|starts?|ends?|ending|expires?|expiry|cut-?off|launch(?:es)?|ships?|releases?|planned|scheduled|sunset|deprecated on|removed on)\b/i;
// Prepositions govern only the date right after them: "by 2026-11-20", not "done by Priya on …".
const DEADLINE_PREPOSITION = /\b(until|till|before|by|through|no later than)\s+(?:on\s+|the\s+)?$/i;
// A window's start: governs the end of the range it opens ("from X until Y"), and alone nothing,
// since a state that began ("used from X", "owns it starting X") stays true once X has passed.
const WINDOW_START = /\b(from|starting|after|between)\s+(?:on\s+)?$/i;
// The value a date had before it changed ("Deadline: Y (moved from X)", "originally X"): no claim.
const SUPERSEDED = /\b(?:(?:moved|changed|pushed(?:\s+back|\s+out)?|postponed|delayed|extended|rescheduled|shifted|slipped|brought\s+forward)\s+from|originally|previously|formerly|instead\s+of)\s+(?:on\s+)?$/i;
// Between the two dates of a range or a change: "from X to Y", "X – Y", "moved from X to Y".
const RANGE_JOIN = /^\s*(?:to|through|thru|until|till|and|-|–|—|→|->)\s*$/i;
// Between a date and the one that replaced it: "was X, now Y", "X (pushed to Y)", "X, but is now Y".
const CHANGE_JOIN = /^[\s,;:(]*(?:(?:but|and|which\s+is|it\s+is|it's)\s+)?(?:(?:is\s+)?now(?:\s+(?:on|set\s+for))?|(?:since\s+|then\s+)?(?:moved|changed|pushed(?:\s+back|\s+out)?|postponed|delayed|extended|rescheduled|shifted|slipped|brought\s+forward)\s+to)\s*$/i;
const SENTENCE_END = /[.;!?]\s/g;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\bwww\.\S+/gi;
const NEARBY_CHARS = 40;

/**
 * Dates whose passing can make the memory untrue: absolute dates governed by a deadline word
 * (within a few words before the date, in its sentence, with no other date between them) and
 * F4 relative dates, resolved against the time the file was written. A range or a change
 * ("from X until Y", "moved from X to Y", "was X, now Y") is judged by its end only: while Y is
 * ahead, X having passed makes nothing untrue. A date in a URL is part of an address, never a claim.
 */
export function findDatedClaims(text: string, writtenAt: Date): DatedClaim[] {
  const withoutUrls = text.replace(URL, (url) => " ".repeat(url.length));
  const claims: DatedClaim[] = [];
  withoutUrls.split("\n").forEach((lineText, index) => {
    for (const claim of findDeadlines(lineText)) claims.push({ kind: "deadline", ...claim, line: index + 1 });
  });
  for (const relative of findRelativeDates(withoutUrls, writtenAt)) claims.push({ kind: "relative", date: relative.date, phrase: relative.phrase, line: relative.line });
  // One claim per date: a window's end is often written twice (description and body).
  const seen = new Set<string>();
  return claims.filter((claim) => !seen.has(`${claim.kind}|${claim.date}`) && Boolean(seen.add(`${claim.kind}|${claim.date}`)));
}

function findDeadlines(line: string): { date: string; phrase: string }[] {
  const dates = findAbsoluteDates(line);
  const deadlines: { date: string; phrase: string }[] = [];
  let rangeStart: { isGoverned: boolean; phrase: string } | null = null;
  dates.forEach((current, index) => {
    const lead = leadingWords(line, dates[index - 1], current);
    const isRangeEnd = rangeStart !== null && joinsTwoDates(lead);
    const isGoverned = DEADLINE_WORDS.test(lead) || DEADLINE_PREPOSITION.test(lead) || (isRangeEnd && rangeStart!.isGoverned);
    const phrase = isRangeEnd ? `${rangeStart!.phrase}${lead}${current.written}` : `${lastWords(lead)} ${current.written}`.trim();
    const next = dates[index + 1];
    if (next && joinsTwoDates(line.slice(current.end, next.start))) {
      rangeStart = { isGoverned: isGoverned || WINDOW_START.test(lead), phrase };
      return;
    }
    rangeStart = null;
    if (isGoverned && !SUPERSEDED.test(lead)) deadlines.push({ date: current.date, phrase });
  });
  return deadlines;
}

function joinsTwoDates(between: string): boolean {
  return RANGE_JOIN.test(between) || CHANGE_JOIN.test(between);
}

/** What stands before a date in its own reach: from the previous date or sentence, at most NEARBY_CHARS. */
function leadingWords(line: string, previous: AbsoluteDate | undefined, current: AbsoluteDate): string {
  const from = Math.max(previous?.end ?? 0, current.start - NEARBY_CHARS);
  const lead = line.slice(from, current.start);
  const sentenceStart = Math.max(0, ...[...lead.matchAll(SENTENCE_END)].map((end) => end.index + 1));
  if (sentenceStart > 0) return lead.slice(sentenceStart);
  // Cut inside a word by the reach: that word's tail is not a word of the phrase. (Right after
  // the previous date nothing is cut: "2026-12-01–2027-01-05" keeps its dash.)
  const isCutByReach = from > (previous?.end ?? 0);
  return isCutByReach && /\S/.test(line[from - 1]!) && /^\S/.test(lead) ? lead.replace(/^\S+/, "") : lead;
}

function lastWords(lead: string): string {
  return lead.trim().split(/\s+/).slice(-3).join(" ");
}
