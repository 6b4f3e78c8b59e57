import { describe, expect, it } from "vitest";
import { cutMemoryContent, MAX_INJECTED_BYTES, MAX_INJECTED_LINES } from "@/lib/recall/cut-memory-content";

const numbered = (count: number, width = 10): string => Array.from({ length: count }, (_, index) => `${index}`.padEnd(width, ".")).join("\n");

describe("cutMemoryContent (C8)", () => {
  it("keeps a short memory whole, with or without a final newline", () => {
    expect(cutMemoryContent("a\nb\n")).toEqual({ text: "a\nb", isCut: false });
    expect(cutMemoryContent("a\nb")).toEqual({ text: "a\nb", isCut: false });
  });

  it("exactly 200 lines is not cut; 201 is", () => {
    expect(cutMemoryContent(`${numbered(200)}\n`).isCut).toBe(false);
    const cut = cutMemoryContent(`${numbered(201)}\n`);
    expect(cut.isCut).toBe(true);
    expect(cut.text.split("\n")).toHaveLength(MAX_INJECTED_LINES);
  });

  it("stops at the last whole line within 4096 bytes, counting UTF-8 bytes", () => {
    const line = "é".repeat(50); // 100 bytes
    const cut = cutMemoryContent(Array.from({ length: 60 }, () => line).join("\n"));
    expect(cut.isCut).toBe(true);
    expect(Buffer.byteLength(cut.text, "utf8")).toBeLessThanOrEqual(MAX_INJECTED_BYTES);
    expect(cut.text.split("\n")).toHaveLength(40); // 40 * 100 + 39 newlines = 4039; a 41st would pass 4096
    expect(cut.text.split("\n").every((kept) => kept === line)).toBe(true);
  });

  it("a first line longer than the limit is cut at a character boundary rather than dropped", () => {
    const cut = cutMemoryContent(`${"😀".repeat(2000)}\nsecond`);
    expect(cut.isCut).toBe(true);
    expect(Buffer.byteLength(cut.text, "utf8")).toBeLessThanOrEqual(MAX_INJECTED_BYTES);
    expect(cut.text).toBe("😀".repeat(1024));
  });

  it("says cut when the caller read only the start of a larger file", () => {
    expect(cutMemoryContent("short", true).isCut).toBe(true);
  });
});
