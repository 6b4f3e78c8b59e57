import { describe, expect, it } from "vitest";
import { validateSelection } from "@/lib/recall/validate-selection";

describe("validateSelection (R5, C8)", () => {
  const known = new Set(["a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "team/g.md"]);

  it("keeps known names in the model's order and reports the rest with a reason", () => {
    expect(validateSelection(["team/g.md", "x.md", "a.md", "team/g.md", "b.md", "c.md", "d.md", "e.md", "f.md"], known)).toEqual({
      files: ["team/g.md", "a.md", "b.md", "c.md", "d.md"],
      dropped: [
        { file: "x.md", reason: "unknown-name" },
        { file: "team/g.md", reason: "duplicate" },
        { file: "e.md", reason: "over-five" },
        { file: "f.md", reason: "over-five" },
      ],
    });
  });

  it("matches names exactly: no case folding, no basename guessing", () => {
    expect(validateSelection(["A.md", "g.md", "./a.md"], known).files).toEqual([]);
  });
});
