import { describe, expect, it } from "vitest";
import { assessFreshness } from "@/lib/stale/assess-freshness";
import type { CheckResult } from "@/lib/stale/check-result";

const NOW = new Date("2026-12-01T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const clean: CheckResult = { code: { signals: [], notes: [] }, claims: [], citationCount: 0, isTruncated: false };

describe("assessFreshness", () => {
  it("ages a project note in weeks but never a feedback rule", () => {
    expect(assessFreshness({ type: "project", lastCommitAt: daysAgo(20), now: NOW, check: clean, codeProblem: null, wasRecalled: true, duplicateOf: null }).state).toBe("aging");
    expect(assessFreshness({ type: "project", lastCommitAt: daysAgo(31), now: NOW, check: clean, codeProblem: null, wasRecalled: true, duplicateOf: null }).state).toBe("stale");
    expect(assessFreshness({ type: "feedback", lastCommitAt: daysAgo(900), now: NOW, check: clean, codeProblem: null, wasRecalled: true, duplicateOf: null })).toMatchObject({ state: "fresh", signals: [] });
  });

  it("never calls a memory fresh when its citations could not be checked", () => {
    const unchecked: CheckResult = { code: null, claims: [], citationCount: 3, isTruncated: false };
    const assessment = assessFreshness({ type: "reference", lastCommitAt: daysAgo(1), now: NOW, check: unchecked, codeProblem: "the code repository could not be read", wasRecalled: true, duplicateOf: null });
    expect(assessment.state).toBe("aging");
    expect(assessment.notChecked).toEqual(["not checked: 3 code citations (the code repository could not be read)"]);
  });

  it("never calls a memory fresh when it cites more than could be checked, even if the first 200 hold", () => {
    const truncated: CheckResult = { ...clean, citationCount: 600, isTruncated: true };
    const assessment = assessFreshness({ type: "reference", lastCommitAt: daysAgo(1), now: NOW, check: truncated, codeProblem: null, wasRecalled: true, duplicateOf: null });
    expect(assessment).toMatchObject({ state: "aging", signals: [], notChecked: ["not checked: citations past the first 200 of a kind"] });
    expect(assessFreshness({ type: "reference", lastCommitAt: daysAgo(1), now: NOW, check: { ...clean, citationCount: 600 }, codeProblem: null, wasRecalled: true, duplicateOf: null }).state).toBe("fresh");
  });

  it("flags a passed deadline, not a future one; never-recalled only past 30 days; the score sorts staler first", () => {
    const dated: CheckResult = { ...clean, claims: [{ kind: "deadline", date: "2026-11-30", phrase: "until 2026-11-30", line: 1 }, { kind: "deadline", date: "2026-12-02", phrase: "until 2026-12-02", line: 2 }] };
    const passed = assessFreshness({ type: "reference", lastCommitAt: daysAgo(40), now: NOW, check: dated, codeProblem: null, wasRecalled: false, duplicateOf: null });
    expect(passed.signals.map((signal) => signal.kind)).toEqual(["past-date", "never-recalled"]);
    const young = assessFreshness({ type: "reference", lastCommitAt: daysAgo(10), now: NOW, check: clean, codeProblem: null, wasRecalled: false, duplicateOf: null });
    expect(young).toMatchObject({ state: "fresh", signals: [] });
    expect(passed.score).toBeGreaterThan(young.score);
  });
});
