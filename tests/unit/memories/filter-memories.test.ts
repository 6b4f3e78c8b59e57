import { describe, expect, it } from "vitest";
import { filterMemories } from "@/lib/memories/filter-memories";
import type { MemoryRow } from "@/lib/memories/memory-row";

const NOW = new Date("2026-11-30T12:00:00Z");

function row(path: string, ageDays: number, extra: Partial<MemoryRow> = {}): MemoryRow {
  return {
    path,
    name: path,
    description: null,
    type: "project",
    mtime: new Date(NOW.getTime() - ageDays * 86_400_000),
    ageDays,
    ageText: `${ageDays} days ago`,
    hasFreshnessWarning: ageDays > 1,
    findings: [],
    ...extra,
  };
}

const rows = [
  row("today.md", 0, { type: "user" }),
  row("week.md", 5),
  row("month.md", 20, { findings: [{ file: "month.md", rule: "missing-why", severity: "warning", message: "F3" }] }),
  row("old.md", 45, { type: null, findings: [{ file: "old.md", rule: "unknown-type", severity: "error", message: "F2" }] }),
  row("ancient.md", 120, { type: "reference" }),
];
const paths = (filtered: MemoryRow[]) => filtered.map((memory) => memory.path);

describe("filterMemories", () => {
  it("sorts newest first by default and oldest first on request", () => {
    expect(paths(filterMemories(rows, {}))).toEqual(["today.md", "week.md", "month.md", "old.md", "ancient.md"]);
    expect(paths(filterMemories(rows, { sort: "oldest" }))).toEqual(["ancient.md", "old.md", "month.md", "week.md", "today.md"]);
  });

  it("A1: age buckets nest for 'within' and cut for 'older than'", () => {
    expect(paths(filterMemories(rows, { age: "today" }))).toEqual(["today.md"]);
    expect(paths(filterMemories(rows, { age: "week" }))).toEqual(["today.md", "week.md"]);
    expect(paths(filterMemories(rows, { age: "month" }))).toEqual(["today.md", "week.md", "month.md"]);
    expect(paths(filterMemories(rows, { age: "over-30" }))).toEqual(["old.md", "ancient.md"]);
    expect(paths(filterMemories(rows, { age: "over-90" }))).toEqual(["ancient.md"]);
  });

  it("filters by type (untyped for memories without a valid one) and by findings", () => {
    expect(paths(filterMemories(rows, { type: "untyped" }))).toEqual(["old.md"]);
    expect(paths(filterMemories(rows, { type: "project" }))).toEqual(["week.md", "month.md"]);
    expect(paths(filterMemories(rows, { finding: "any" }))).toEqual(["month.md", "old.md"]);
    expect(paths(filterMemories(rows, { finding: "errors" }))).toEqual(["old.md"]);
    expect(paths(filterMemories(rows, { finding: "missing-why" }))).toEqual(["month.md"]);
    expect(paths(filterMemories(rows, { finding: "missing-why", age: "over-30" }))).toEqual([]);
  });
});
