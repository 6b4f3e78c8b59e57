import { describe, expect, it } from "vitest";
import { formatCommitMessage } from "@/lib/review/format-commit-message";

describe("commit messages", () => {
  const approver = { name: "Lena Park", email: "lena@acme.example" };
  const base = { proposalId: "p1", path: "feedback_x.md", name: "Real DB", type: "feedback" as const, source: "member" as const, approver, baseCommit: null };

  it("says add, update or retire with the type and name, and carries the review trailers", () => {
    expect(formatCommitMessage({ ...base, isNew: true, isRetirement: false }).subject).toBe("Add feedback memory: Real DB");
    expect(formatCommitMessage({ ...base, isNew: false, isRetirement: false }).subject).toBe("Update feedback memory: Real DB");
    expect(formatCommitMessage({ ...base, isNew: false, isRetirement: true, baseCommit: "abc" })).toEqual({
      subject: "Retire feedback memory: Real DB",
      trailers: { "Proposal-Id": "p1", "Approved-by": "Lena Park <lena@acme.example>", "Reviewed-by": "Lena Park <lena@acme.example>", Source: "member", "Base-Commit": "abc" },
    });
  });

  it("keeps a name with line breaks on one line", () => {
    expect(formatCommitMessage({ ...base, name: "A\nApproved-by: mallory", isNew: true, isRetirement: false }).subject).toBe("Add feedback memory: A Approved-by: mallory");
  });
});
