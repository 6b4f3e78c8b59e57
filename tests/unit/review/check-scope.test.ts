import { describe, expect, it } from "vitest";
import { checkScope } from "@/lib/review/check-scope";
import { findAbsoluteRules } from "@/lib/review/find-absolute-rules";
import { memoryText } from "./memory-fixtures";

describe("scope verdicts (T2)", () => {
  it("keeps user memories private, whatever the reviewer confirms", () => {
    for (const isTeamConventionConfirmed of [false, true]) {
      const scope = checkScope({ type: "user", content: memoryText({ type: "user" }), isTeamConventionConfirmed });
      expect(scope.verdict).toBe("private-only");
      expect(scope.reasons[0]).toMatch(/stays in their private memory/);
    }
  });

  it("asks for confirmation before feedback becomes a team convention", () => {
    expect(checkScope({ type: "feedback", content: memoryText(), isTeamConventionConfirmed: false }).verdict).toBe("needs-confirmation");
    expect(checkScope({ type: "feedback", content: memoryText(), isTeamConventionConfirmed: true }).verdict).toBe("team");
  });

  it("sends project and reference memories to the team by default", () => {
    expect(checkScope({ type: "project", content: memoryText({ type: "project" }), isTeamConventionConfirmed: false }).verdict).toBe("team");
    expect(checkScope({ type: "reference", content: memoryText({ type: "reference" }), isTeamConventionConfirmed: false }).verdict).toBe("team");
  });

  it("asks for confirmation when the memory has no type", () => {
    expect(checkScope({ type: null, content: "no frontmatter at all\n", isTeamConventionConfirmed: false }).verdict).toBe("needs-confirmation");
  });

  it("treats a retirement as a team change with nothing to flag", () => {
    expect(checkScope({ type: "feedback", content: null, isTeamConventionConfirmed: false })).toMatchObject({ verdict: "team", isAbsoluteRule: false });
  });
});

describe("absolute rules (T2: a second look)", () => {
  it("flags always / never / must at the start of a rule line, with the line and without its text", () => {
    const text = memoryText({ type: "project", body: "Never deploy on Fridays.\n- **Always** tag the release.\n3. must ask Lena first\n**Why:** the hunter2 incident.\n" });
    expect(findAbsoluteRules(text)).toEqual([
      { line: 6, word: "Never" },
      { line: 7, word: "Always" },
      { line: 8, word: "Must" },
    ]);
    const scope = checkScope({ type: "project", content: text, isTeamConventionConfirmed: false });
    expect(scope.isAbsoluteRule).toBe(true);
    expect(scope.verdict).toBe("team"); // flagged, not blocking
    expect(scope.reasons.join(" ")).toMatch(/Line 6 starts with "Never"/);
    expect(scope.reasons.join(" ")).not.toContain("deploy on Fridays");
  });

  it("flags a description that reads as an absolute rule", () => {
    const text = memoryText({ description: "Never mock the PayFlow sandbox in contract tests" });
    expect(findAbsoluteRules(text)).toEqual([{ line: 3, word: "Never" }]);
  });

  it("does not flag the words in the middle of a sentence, or words that merely start with them", () => {
    const text = memoryText({ body: "Tests must hit a real database.\nNevertheless we keep one mock.\nAlwaysOn is the cluster name.\n" });
    expect(findAbsoluteRules(text)).toEqual([]);
    expect(checkScope({ type: "feedback", content: text, isTeamConventionConfirmed: true }).isAbsoluteRule).toBe(false);
  });
});
