import { describe, expect, it } from "vitest";
import { formatLineDiff } from "@/cli/format-line-diff";

const diffOf = (before: string, after: string) => formatLineDiff({ label: "x.md", before, after }).slice(2);

describe("formatLineDiff", () => {
  it("lists only the changed line of an edit in the middle, never the unchanged lines around it", () => {
    const before = "---\nname: Bot\ntype: reference\n---\ntoken ghp_…abcd here\nRotate it.\n";
    const after = "---\nname: Bot\ntype: reference\n---\ntoken [REDACTED:github-classic-token] here\nRotate it.\n";
    expect(diffOf(before, after)).toEqual(["@@ -5,1 +5,1 @@", "-token ghp_…abcd here", "+token [REDACTED:github-classic-token] here"]);
  });

  it("heads empty ranges as GNU diff does (the line before them), for a removal and an append", () => {
    const lines = Array.from({ length: 101 }, (_, index) => `line ${index + 1}`);
    const after = [...lines.filter((_, index) => index !== 4), "added"];
    expect(diffOf(`${lines.join("\n")}\n`, `${after.join("\r\n")}\r\n`)).toEqual(["@@ -5,1 +4,0 @@", "-line 5", "@@ -101,0 +101,1 @@", "+added"]);
    expect(diffOf("", "a\nb\n")).toEqual(["@@ -0,0 +1,2 @@", "+a", "+b"]);
  });
});
