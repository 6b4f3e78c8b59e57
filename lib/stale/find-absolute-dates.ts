/** A date written out in full on one line, where it stands, and the day it means. */
export type AbsoluteDate = { date: string; written: string; start: number; end: number };

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
// 2026-10-02, 2026/10/02, October 2, 2026, Oct 2 2026, 2 October 2026.
const FORMS: { pattern: RegExp; toDate: (match: RegExpExecArray) => string | null }[] = [
  { pattern: /\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/g, toDate: (match) => isoDate(Number(match[1]), Number(match[2]), Number(match[3])) },
  { pattern: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "gi"), toDate: (match) => isoDate(Number(match[3]), monthNumber(match[1]), Number(match[2])) },
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`, "gi"), toDate: (match) => isoDate(Number(match[3]), monthNumber(match[2]), Number(match[1])) },
];

/** The valid dates of one line, left to right (31 February and the like are not dates). */
export function findAbsoluteDates(line: string): AbsoluteDate[] {
  const found: AbsoluteDate[] = [];
  for (const { pattern, toDate } of FORMS) {
    for (const match of line.matchAll(pattern)) {
      const date = toDate(match);
      if (date) found.push({ date, written: match[0], start: match.index, end: match.index + match[0].length });
    }
  }
  found.sort((a, b) => a.start - b.start);
  return found.filter((date, index) => index === 0 || date.start >= found[index - 1]!.end);
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
