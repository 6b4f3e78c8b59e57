import { describe, expect, it } from "vitest";
import { parseMemoryHeader } from "@/lib/memdir/frontmatter";
import { updateMemoryText } from "@/lib/memdir/update-memory-text";

const original = [
  "---",
  "name:   Concise replies   # hand-aligned",
  "description: 'No summary at the end'",
  "type: feedback",
  "x-owner: { team: core, since: 2025 }",
  "tags:",
  "  - style",
  "  - output",
  "---",
  "Do not summarise.",
  "**Why:** reads the diff.",
  "",
].join("\n");

describe("updateMemoryText", () => {
  it("F1: changing one field keeps unknown fields, comments and the body byte for byte", () => {
    const updated = updateMemoryText(original, { fields: { type: "project" } });
    expect(updated).toBe(original.replace("type: feedback", "type: project"));
  });

  it("F1: a rewrite that changes nothing returns the same bytes", () => {
    expect(updateMemoryText(original, { fields: { description: "No summary at the end", type: "feedback" } })).toBe(original);
  });

  it("F1: replaces a multi-line field and adds a missing one before the closing line", () => {
    const updated = updateMemoryText(original, { fields: { tags: ["style"], reviewed: "2026-03-01" } });
    expect(updated).toContain("tags:\n  - style\nreviewed: '2026-03-01'\n---\nDo not summarise.");
    expect(updated).not.toContain("- output");
    expect(parseMemoryHeader(updated).fields["x-owner"]).toEqual({ team: "core", since: 2025 });
  });

  it("F1: undefined removes a field", () => {
    expect(updateMemoryText(original, { fields: { "x-owner": undefined } })).not.toContain("x-owner");
  });

  it("C4: keeps a BOM and CRLF line ends, writing new lines with CRLF too", () => {
    const crlf = "\uFEFF---\r\nname: A\r\ntype: user\r\n---\r\nBody\r\n";
    const updated = updateMemoryText(crlf, { fields: { description: "Added" } });
    expect(updated).toBe("\uFEFF---\r\nname: A\r\ntype: user\r\ndescription: Added\r\n---\r\nBody\r\n");
  });

  it("F1: a file without frontmatter gets one, and its text becomes the body unchanged", () => {
    const updated = updateMemoryText("Plain notes\n", { fields: { type: "user" } });
    expect(updated).toBe("---\ntype: user\n---\nPlain notes\n");
  });

  it("F1: replaces the body only when asked", () => {
    expect(updateMemoryText(original, { body: "New body\n" })).toBe(original.slice(0, original.indexOf("Do not")) + "New body\n");
  });
});
