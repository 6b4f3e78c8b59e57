import { describe, expect, it } from "vitest";
import { findRelativeDates } from "@/lib/memdir/find-relative-dates";

const saved = new Date(Date.UTC(2026, 2, 1, 23, 0)); // Sunday 2026-03-01
const dates = (text: string): Array<[string, string]> => findRelativeDates(text, saved).map((found) => [found.phrase, found.date]);

describe("findRelativeDates", () => {
  it("F4: converts the common phrases against the save date", () => {
    expect(dates("after Thursday")).toEqual([["after Thursday", "2026-03-05"]]);
    expect(dates("tomorrow; the day after tomorrow")).toEqual([
      ["the day after tomorrow", "2026-03-03"],
      ["tomorrow", "2026-03-02"],
    ]);
    expect(dates("in two weeks")).toEqual([["in two weeks", "2026-03-15"]]);
    expect(dates("in 3 days")).toEqual([["in 3 days", "2026-03-04"]]);
    expect(dates("by end of month")).toEqual([["end of month", "2026-03-31"]]);
    expect(dates("next week")).toEqual([["next week", "2026-03-02"]]);
    expect(dates("next month")).toEqual([["next month", "2026-04-01"]]);
    expect(dates("last Friday")).toEqual([["last Friday", "2026-02-27"]]);
  });

  it("F4: a weekday on the save day means next week's", () => {
    expect(dates("Sunday")).toEqual([["Sunday", "2026-03-08"]]);
  });

  it("F4: absolute dates and ordinary words are left alone", () => {
    expect(dates("Freeze from 2026-03-05; the weekly sync is a monday-ish thing? no")).toEqual([["monday", "2026-03-02"]]);
    expect(dates("Freeze from 2026-03-05 until the release")).toEqual([]);
  });

  it("F4: a day's name is no relative date: Black Friday, Cyber Monday, Patch Tuesday, Good Friday", () => {
    expect(dates("No deploys during the Black Friday and Cyber Monday weekend; Patch Tuesday updates wait; Good Friday is off")).toEqual([]);
    expect(dates("The Black Friday freeze starts next Friday")).toEqual([["next Friday", "2026-03-06"]]);
  });
});
