import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "@/lib/memdir/split-frontmatter";

describe("splitFrontmatter", () => {
  it("C4: must start with a --- line and close with one", () => {
    expect(splitFrontmatter("---\na: 1\n---\nbody")).toEqual({ kind: "closed", yaml: "a: 1\n", body: "body" });
    expect(splitFrontmatter("---  \n---")).toEqual({ kind: "closed", yaml: "", body: "" });
    expect(splitFrontmatter("----\na: 1\n---\n").kind).toBe("none");
    expect(splitFrontmatter(" ---\na: 1\n---\n").kind).toBe("none");
    expect(splitFrontmatter("---\na: 1\n--- not a delimiter\n").kind).toBe("unclosed");
  });
});
