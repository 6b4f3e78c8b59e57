import { describe, expect, it } from "vitest";
import { readClaimedText } from "@/lib/stale/read-claimed-text";

/** Each line of the claimed text with the file line it maps to. */
function mapped(text: string): string[] {
  const claimed = readClaimedText(text);
  return claimed.text.split("\n").map((line, index) => `${claimed.fileLine(index + 1)}: ${line}`);
}

describe("readClaimedText", () => {
  it("maps the description and the body back to the file's lines, frontmatter counted", () => {
    expect(mapped("---\nname: Freeze\ndescription: Freeze until 2026-11-20\ntype: project\n---\nFirst.\nSecond.")).toEqual(["3: Freeze until 2026-11-20", "6: First.", "7: Second."]);
  });

  it("puts a block scalar's lines below its key", () => {
    expect(mapped("---\nname: Freeze\ndescription: |\n  One.\n  Two.\n---\nBody.")).toEqual(["4: One.", "5: Two.", "7: Body."]);
  });

  it("reads a file without frontmatter, or one closing after line 30, as body from line 1 or after the late close (C4)", () => {
    expect(mapped("Just a note.\nUntil 2026-11-20.")).toEqual(["1: ", "1: Just a note.", "2: Until 2026-11-20."]);
    const late = ["---", "description: Freeze until 2026-11-20", ...Array.from({ length: 28 }, (_, index) => `extra${index}: value`), "---", "Body."].join("\n");
    expect(mapped(late)).toEqual(["1: ", "32: Body."]);
  });
});
