import { describe, expect, it } from "vitest";
import { formatMemoryHeader } from "@/lib/memdir/format-memory-header";

const now = new Date(Date.UTC(2026, 3, 17, 12));
const daysAgo = (days: number): Date => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

describe("formatMemoryHeader", () => {
  it("A3: fresh memories say when they were saved", () => {
    expect(formatMemoryHeader("/m/a.md", daysAgo(0), now)).toBe("Memory (saved today): /m/a.md:");
    expect(formatMemoryHeader("/m/a.md", daysAgo(1), now)).toBe("Memory (saved yesterday): /m/a.md:");
  });

  it("A3: older memories lead with the warning, then `Memory: {path}:`", () => {
    const header = formatMemoryHeader("/m/freeze.md", daysAgo(47), now);
    const lines = header.split("\n");
    expect(lines[0]).toMatch(/^This memory is 47 days old\./);
    expect(lines.at(-1)).toBe("Memory: /m/freeze.md:");
  });
});
