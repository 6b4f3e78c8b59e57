import { describe, expect, it } from "vitest";
import { freshnessWarning, memoryAge, memoryAgeDays, needsFreshnessWarning } from "@/lib/memdir/age";

const now = new Date(Date.UTC(2026, 3, 17, 12));
const daysAgo = (days: number): Date => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

describe("age", () => {
  it("A1: today, yesterday, N days ago", () => {
    expect([memoryAge(daysAgo(0.5), now), memoryAge(daysAgo(1), now), memoryAge(daysAgo(47), now)]).toEqual(["today", "yesterday", "47 days ago"]);
  });

  it("A1: a future mtime (clock skew) counts as today", () => {
    expect(memoryAgeDays(daysAgo(-3), now)).toBe(0);
  });

  it("A2: only memories older than one day get a warning, with the age in it", () => {
    expect(needsFreshnessWarning(daysAgo(1), now)).toBe(false);
    expect(freshnessWarning(daysAgo(1), now)).toBeNull();
    expect(freshnessWarning(daysAgo(47), now)).toMatch(/^This memory is 47 days old\. .*file:line.*current code/);
  });
});
