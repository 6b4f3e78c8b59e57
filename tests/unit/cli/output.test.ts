import { describe, expect, it } from "vitest";
import { formatLines, linesOf } from "@/cli/output";

describe("formatLines", () => {
  it("prints a lead's rejection reason with escape sequences and U+202E as visible escapes, one line", () => {
    expect(formatLines(["  rejected: no\u001b]0;title\u0007\u001b[2J\u001b[31m\u202e thanks"])).toBe("  rejected: no\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\u202e thanks\n");
  });

  it("a value holding a newline cannot add a line; the CLI's own text keeps its lines", () => {
    expect(formatLines(["skipped  new\nline.md", "done."])).toBe("skipped  new\\nline.md\ndone.\n");
    expect(formatLines(linesOf("Usage: teammem x\n\nMore."))).toBe("Usage: teammem x\n\nMore.\n");
  });
});
