import { describe, expect, it } from "vitest";
import { formatLoadedIndex, MAX_ENTRYPOINT_BYTES, truncateIndex } from "@/lib/memdir/truncate-index";

const entry = (index: number, width = 40): string => `- [M${index}](m${index}.md) — ${"h".repeat(width)}`;

describe("truncateIndex", () => {
  it("I2: a small index is loaded whole, trimmed, with no warning", () => {
    const result = truncateIndex("\n\n- [A](a.md) — hook\n- [B](b.md)\n\n");
    expect(result).toMatchObject({ lines: 2, lineTruncated: false, byteTruncated: false, loadedLines: 2, warning: null });
    expect(result.loaded).toBe("- [A](a.md) — hook\n- [B](b.md)");
  });

  it("I3: over 200 lines keeps the first 200 and warns about lines", () => {
    const text = Array.from({ length: 250 }, (_, index) => entry(index)).join("\n");
    const result = truncateIndex(text);
    expect(result).toMatchObject({ lines: 250, lineTruncated: true, byteTruncated: false, sizeCut: "none", loadedLines: 200 });
    expect(result.loaded.startsWith(Array.from({ length: 200 }, (_, index) => entry(index)).join("\n") + "\n\n")).toBe(true);
    expect(result.warning).toMatch(/250 lines \(the limit is 200\)/);
    expect(result.warning).not.toMatch(/characters \(the limit/);
  });

  it("I3, C7: over 25,000 characters within 200 lines cuts at the last newline before 25,000", () => {
    const text = Array.from({ length: 100 }, (_, index) => entry(index, 300)).join("\n");
    const result = truncateIndex(text);
    const kept = result.loaded.slice(0, result.loaded.indexOf("\n\n>"));
    expect(result).toMatchObject({ lineTruncated: false, byteTruncated: true, sizeCut: "line-end" });
    expect(kept.length).toBeLessThanOrEqual(MAX_ENTRYPOINT_BYTES);
    expect(text.startsWith(kept + "\n")).toBe(true);
    expect(result.loadedLines).toBe(kept.split("\n").length);
    expect(result.warning).toMatch(/characters \(the limit is 25,000\)/);
  });

  it("I3: a single line with no newline is cut at 25,000", () => {
    const result = truncateIndex("x".repeat(30_000));
    expect(result.loaded.indexOf("\n\n>")).toBe(25_000);
    expect(result.sizeCut).toBe("exact");
  });

  it("I3: a whole index over 25,000 characters whose first 200 lines fit is flagged over, with no size cut", () => {
    const text = Array.from({ length: 250 }, (_, index) => entry(index, 100)).join("\n");
    const result = truncateIndex(text);
    expect(result.bytes).toBeGreaterThan(MAX_ENTRYPOINT_BYTES);
    expect(result).toMatchObject({ lineTruncated: true, byteTruncated: true, sizeCut: "none", loadedLines: 200 });
  });

  it("C7: 'bytes' is string length, so multi-byte text is measured in characters", () => {
    expect(truncateIndex("é".repeat(10)).bytes).toBe(10);
  });

  it("C7: frontmatter and HTML comments are not loaded", () => {
    const result = truncateIndex("---\ntitle: idx\n---\n<!-- hidden\n- [X](x.md) -->\n- [A](a.md)\n");
    expect(result.loaded).toBe("- [A](a.md)");
  });

  it("I3: both limits hit are both named", () => {
    const text = Array.from({ length: 300 }, (_, index) => entry(index, 200)).join("\n");
    expect(truncateIndex(text).warning).toMatch(/lines .* and .* characters/);
  });

  it("I6: the loaded form names the file", () => {
    expect(formatLoadedIndex("/h/.claude/projects/-r/memory/MEMORY.md", truncateIndex("- [A](a.md)"))).toBe(
      "Contents of /h/.claude/projects/-r/memory/MEMORY.md (user's auto-memory, persists across conversations):\n\n- [A](a.md)",
    );
  });
});
