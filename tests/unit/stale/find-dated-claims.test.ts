import { describe, expect, it } from "vitest";
import { findDatedClaims } from "@/lib/stale/find-dated-claims";

const WRITTEN = new Date("2026-11-02T09:00:00Z");

const deadlines = (text: string) => findDatedClaims(text, WRITTEN).map((claim) => `${claim.date} "${claim.phrase}"`);

describe("findDatedClaims", () => {
  it("takes dates phrased as a deadline or window, once per date, and leaves records of the past alone", () => {
    const claims = findDatedClaims("Checkout code freeze from 2025-12-15 through 2026-01-05.\nFrozen from 2025-12-15 through 2026-01-05.\nShipped on 2025-03-01. Due by March 3, 2027.", WRITTEN);
    // A window is over when its end passes: its start is not a claim of its own.
    expect(claims.map((claim) => claim.date)).toEqual(["2026-01-05", "2027-03-03"]);
    expect(claims[0]!.phrase).toBe("code freeze from 2025-12-15 through 2026-01-05");
  });

  it("judges the date the deadline words govern, not another date on the line", () => {
    expect(deadlines("The freeze starts 2027-02-01 (announced on 2026-10-03).")).toEqual(['2027-02-01 "The freeze starts 2027-02-01"']);
    expect(deadlines("Announced on 2026-10-03: the freeze starts 2027-02-01.")).toEqual(['2027-02-01 "the freeze starts 2027-02-01"']);
    expect(deadlines("The ledger migration deadline moved from 2026-10-03 to 2027-03-03.")).toEqual(['2027-03-03 "deadline moved from 2026-10-03 to 2027-03-03"']);
    expect(deadlines("Deadline: 2027-03-03 (moved from 2026-10-03).")).toEqual(['2027-03-03 "Deadline: 2027-03-03"']);
    expect(deadlines("Frozen from 2026-10-01 until 2027-01-10; shipped on 2026-09-30.")).toEqual(['2027-01-10 "Frozen from 2026-10-01 until 2027-01-10"']);
    // Still found: a deadline with a later, unrelated date, and a changed deadline whose new date has passed too.
    expect(deadlines("Freeze until 2026-10-20, see the notes of 2026-09-01.")).toEqual(['2026-10-20 "Freeze until 2026-10-20"']);
    expect(deadlines("Deadline moved from 2026-09-01 to 2026-10-01.")).toEqual(['2026-10-01 "Deadline moved from 2026-09-01 to 2026-10-01"']);
  });

  it("judges a changed date by the date that replaced it, however the change is written", () => {
    expect(deadlines("The deadline was 2026-10-01, now 2027-01-15.")).toEqual(['2027-01-15 "The deadline was 2026-10-01, now 2027-01-15"']);
    expect(deadlines("Release freeze 2026-10-20 (pushed to 2027-02-01).")).toEqual(['2027-02-01 "Release freeze 2026-10-20 (pushed to 2027-02-01"']);
    expect(deadlines("Launch on 2026-09-01, but is now on 2027-03-01.")).toEqual(['2027-03-01 "Launch on 2026-09-01, but is now on 2027-03-01"']);
    // The new date passing is still found; an unrelated later date still does not shield the first.
    expect(deadlines("Cut-off was 2026-09-01, now 2026-10-01.")).toEqual(['2026-10-01 "Cut-off was 2026-09-01, now 2026-10-01"']);
    expect(deadlines("Due 2026-10-01, noted on 2026-09-01.")).toEqual(['2026-10-01 "Due 2026-10-01"']);
  });

  it("reads a window written without spaces around its dash by its end", () => {
    expect(deadlines("Code freeze 2026-12-01–2027-01-05.")).toEqual(['2027-01-05 "Code freeze 2026-12-01–2027-01-05"']);
  });

  it("leaves records of the past alone: past tenses, a preposition not right before the date, a state that began", () => {
    for (const record of [
      "Checkout v3 was released on 2026-10-01 and replaced the multi-step form with one page.",
      "The migration was done by Priya on 2026-09-14, see the runbook.",
      "This note was written after the 2026-09-14 outage.",
      "The new tax table is used from 2026-01-01 onward.",
      "Team Payments owns checkout starting 2026-06-01.",
    ]) {
      expect(deadlines(record), record).toEqual([]);
    }
    expect(deadlines("Merge everything by 2026-10-20.")).toEqual(['2026-10-20 "Merge everything by 2026-10-20"']);
    expect(deadlines("Migrations are blocked from 2026-10-01 to 2026-10-15.")).toEqual(['2026-10-15 "are blocked from 2026-10-01 to 2026-10-15"']);
  });

  it("never takes a date inside a URL, and names a phrase of whole words", () => {
    expect(deadlines("Notes: https://wiki.example.com/2026-11-20/until-2026-11-21 and www.example.com/until/2026-01-01.")).toEqual([]);
    expect(deadlines("See https://wiki.example.com/x for details; the merge freeze lasts until 2026-11-20.")).toEqual(['2026-11-20 "freeze lasts until 2026-11-20"']);
    expect(deadlines("averyveryveryverylongwordwithoutanyspaceatall until 2026-11-20")).toEqual(['2026-11-20 "until 2026-11-20"']);
  });

  it("resolves relative dates against the time the file was written", () => {
    expect(findDatedClaims("The demo is next Thursday.", WRITTEN)).toEqual([{ kind: "relative", date: "2026-11-05", phrase: "next Thursday", line: 1 }]);
  });
});
