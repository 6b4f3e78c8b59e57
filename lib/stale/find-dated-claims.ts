import { findRelativeDates } from "../memdir/find-relative-dates";

/** A date a memory's truth hangs on: a deadline or window written as a date, or a relative date. */
export type DatedClaim = { kind: "deadline" | "relative"; date: string; phrase: string; line: number };

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
// 2026-10-02, 2026/10/02, October 2, 2026, Oct 2 2026, 2 October 2026.
const ABSOLUTE_DATES: { pattern: RegExp; toDate: (match: RegExpExecArray) => string | null }[] = [
  { pattern: /\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/g, toDate: (match) => isoDate(Number(match[1]), Number(match[2]), Number(match[3])) },
  { pattern: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "gi"), toDate: (match) => isoDate(Number(match[3]), monthNumber(match[1]), Number(match[2])) },
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`, "gi"), toDate: (match) => isoDate(Number(match[3]), monthNumber(match[2]), Number(match[1])) },
];
// Words that make a date a deadline or the edge of a window, not a record of when something happened.
const DEADLINE_WORDS = /\b(until|till|before|by|deadline|due|freeze|frozen|starts?|starting|ends?|ending|expires?|expiry|through|no later than|from|after|cut-?off|launch(?:es)?|ships?|release[sd]?|planned|scheduled|sunset|deprecated on|removed on)\b/i;
const NEARBY_CHARS = 40;

/**
 * Dates whose passing can make the memory untrue: absolute dates phrased as a deadline or window
 * (a keyword within a few words before it, on the same line) and F4 relative dates, resolved
 * against the time the file was written.
 */
export function findDatedClaims(text: string, writtenAt: Date): DatedClaim[] {
  const claims: DatedClaim[] = [];
  text.split("\n").forEach((lineText, index) => {
    for (const { pattern, toDate } of ABSOLUTE_DATES) {
      for (const match of lineText.matchAll(pattern)) {
        const date = toDate(match);
        const before = lineText.slice(Math.max(0, match.index - NEARBY_CHARS), match.index);
        if (date && DEADLINE_WORDS.test(before)) claims.push({ kind: "deadline", date, phrase: `${before.trim().split(/\s+/).slice(-3).join(" ")} ${match[0]}`.trim(), line: index + 1 });
      }
    }
  });
  for (const relative of findRelativeDates(text, writtenAt)) claims.push({ kind: "relative", date: relative.date, phrase: relative.phrase, line: relative.line });
  // One claim per date: a window's end is often written twice (description and body).
  const seen = new Set<string>();
  return claims.filter((claim) => !seen.has(`${claim.kind}|${claim.date}`) && Boolean(seen.add(`${claim.kind}|${claim.date}`)));
}

function monthNumber(name: string | undefined): number {
  const lower = (name ?? "").toLowerCase();
  return MONTHS.findIndex((month) => month.startsWith(lower.slice(0, 3))) + 1;
}

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1970 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null; // 31 February
  return date.toISOString().slice(0, 10);
}
