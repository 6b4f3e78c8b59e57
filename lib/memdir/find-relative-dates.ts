export type RelativeDate = {
  /** The phrase as written, e.g. "next Thursday". */
  phrase: string;
  /** 1-based line of the phrase in the text given. */
  line: number;
  /** The absolute date it meant when the file was saved, `YYYY-MM-DD`. */
  date: string;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7 };

type Rule = { pattern: RegExp; resolve: (match: RegExpExecArray, base: Date) => Date };

// F4: the phrases people use for dates. Each resolves against the day the file was saved.
const RULES: Rule[] = [
  { pattern: /\b(?:the\s+)?day\s+after\s+tomorrow\b/gi, resolve: (_, base) => addDays(base, 2) },
  { pattern: /\btomorrow\b/gi, resolve: (_, base) => addDays(base, 1) },
  { pattern: /\byesterday\b/gi, resolve: (_, base) => addDays(base, -1) },
  { pattern: /\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b/gi, resolve: (_, base) => base },
  { pattern: /\bin\s+(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(day|week|month)s?\b/gi, resolve: (match, base) => shift(base, count(match[1]), match[2], 1) },
  { pattern: /\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(day|week|month)s?\s+ago\b/gi, resolve: (match, base) => shift(base, count(match[1]), match[2], -1) },
  { pattern: /\bnext\s+week\b/gi, resolve: (_, base) => nextWeekday(base, 1) },
  { pattern: /\blast\s+week\b/gi, resolve: (_, base) => addDays(base, -7) },
  { pattern: /\bnext\s+month\b/gi, resolve: (_, base) => new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 1)) },
  { pattern: /\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?month\b/gi, resolve: (_, base) => new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)) },
  { pattern: /\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?week\b/gi, resolve: (_, base) => nextWeekdayOrToday(base, 5) },
  { pattern: /\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?year\b/gi, resolve: (_, base) => new Date(Date.UTC(base.getUTCFullYear(), 11, 31)) },
  { pattern: /\blast\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/gi, resolve: (match, base) => previousWeekday(base, weekday(match[1])) },
  // A day's name ("Black Friday", "Patch Tuesday", "Easter Monday") is no date relative to the save.
  { pattern: /(?<!\b(?:black|cyber|good|easter|ash|maundy|holy|super|patch|giving|whit|shrove)\s+)\b(?:(?:next|this|on|by|after|before|until|from)\s+)?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/gi, resolve: (match, base) => nextWeekday(base, weekday(match[1])) },
];

/**
 * F4: relative dates in a project memory, each with the absolute date it meant when saved.
 * `saved` is the file's mtime; dates are computed in UTC so the answer does not depend on the
 * machine running lint. A weekday means its next occurrence after the save day.
 */
export function findRelativeDates(text: string, saved: Date): RelativeDate[] {
  const base = new Date(Date.UTC(saved.getUTCFullYear(), saved.getUTCMonth(), saved.getUTCDate()));
  const found: RelativeDate[] = [];
  text.split("\n").forEach((lineText, index) => {
    const taken: Array<[number, number]> = [];
    for (const rule of RULES) {
      for (const match of lineText.matchAll(rule.pattern)) {
        const start = match.index;
        const end = start + match[0].length;
        if (taken.some(([from, to]) => start < to && end > from)) continue; // a longer phrase already matched
        taken.push([start, end]);
        found.push({ phrase: match[0], line: index + 1, date: isoDate(rule.resolve(match, base)) });
      }
    }
  });
  return found.sort((a, b) => a.line - b.line);
}

function count(word: string | undefined): number {
  const value = (word ?? "").toLowerCase();
  return NUMBER_WORDS[value] ?? Number.parseInt(value, 10);
}

function shift(base: Date, amount: number, unit: string | undefined, sign: 1 | -1): Date {
  if (unit?.toLowerCase() === "month") return new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + sign * amount, base.getUTCDate()));
  return addDays(base, sign * amount * (UNIT_DAYS[unit?.toLowerCase() ?? "day"] ?? 1));
}

function weekday(name: string | undefined): number {
  return WEEKDAYS.indexOf((name ?? "").toLowerCase());
}

function addDays(base: Date, days: number): Date {
  return new Date(base.getTime() + days * DAY_MS);
}

function nextWeekday(base: Date, day: number): Date {
  return addDays(base, ((day - base.getUTCDay() + 6) % 7) + 1);
}

function nextWeekdayOrToday(base: Date, day: number): Date {
  return addDays(base, (day - base.getUTCDay() + 7) % 7);
}

function previousWeekday(base: Date, day: number): Date {
  return addDays(base, -(((base.getUTCDay() - day + 6) % 7) + 1));
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
