import { describe, expect, it } from "vitest";
import { computeChecks } from "@/lib/review/compute-checks";
import { parseStoredChecks, serializeStoredChecks } from "@/lib/review/stored-checks";
import { fakePassword, memoryText } from "./memory-fixtures";

const now = new Date("2026-11-30T12:00:00Z");
const check = (content: string | null, options: { confirmed?: boolean; baseContent?: string | null } = {}) =>
  computeChecks({ path: "feedback_x.md", content, baseContent: options.baseContent ?? null, teamMemories: [], isTeamConventionConfirmed: options.confirmed ?? false, now });

describe("checks on a proposal", () => {
  it("has no blockers for a confirmed, well-formed feedback memory", () => {
    const { checks, name, type } = check(memoryText(), { confirmed: true });
    expect(checks.blockers).toEqual([]);
    expect(checks.lint.filter((finding) => finding.severity === "error")).toEqual([]);
    expect({ name, type }).toEqual({ name: "Integration tests hit a real database", type: "feedback" });
  });

  it("blocks on a lint error until the memory is edited, and names it", () => {
    const { checks } = check("---\nname: No description\ntype: project\n---\nBody\n");
    expect(checks.lint.some((finding) => finding.rule === "missing-description" && finding.severity === "error")).toBe(true);
    expect(checks.blockers.join("\n")).toMatch(/The frontmatter has no `description`.*Edit the memory before approving it/);
  });

  it("blocks on a secret and keeps its value out of the stored checks", () => {
    const password = fakePassword(7);
    const text = memoryText({ type: "project", body: `The staging admin login is password = "${password}"\n**Why:** x\n**How to apply:** y\n` });
    const computed = check(text);
    expect(computed.checks.secrets).toHaveLength(1);
    expect(computed.checks.secrets[0]).toMatchObject({ kind: "password-assignment", line: 6 });
    expect(computed.checks.blockers[0]).toMatch(/^1 secret found \(password-assignment on line 6\)/);
    const json = serializeStoredChecks({ ...computed, baseCommit: null, conflict: null });
    expect(json).not.toContain(password);
    expect(json).not.toContain(password.slice(2, 10));
    expect(parseStoredChecks(json).checks).toEqual(computed.checks);
  });

  it("blocks a user memory and unconfirmed feedback with a sentence each", () => {
    expect(check(memoryText({ type: "user" })).checks.blockers.join(" ")).toMatch(/stays personal and cannot enter the team store/);
    expect(check(memoryText()).checks.blockers).toEqual(["Confirm that this is a team convention (it applies to everyone) to approve it."]);
  });

  it("does not block on an absolute rule", () => {
    const { checks } = check(memoryText({ type: "project", body: "Never merge on Fridays.\n**Why:** weekend pages.\n**How to apply:** all repos.\n" }));
    expect(checks.scope.isAbsoluteRule).toBe(true);
    expect(checks.blockers).toEqual([]);
  });

  it("names a retirement after the file it removes", () => {
    const computed = check(null, { baseContent: memoryText({ name: "Old rule", type: "project" }) });
    expect(computed).toMatchObject({ name: "Old rule", type: "project", isRetirement: true, checks: { blockers: [], secrets: [], lint: [] } });
  });
});
