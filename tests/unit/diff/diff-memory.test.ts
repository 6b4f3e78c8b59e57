import { describe, expect, it } from "vitest";
import { diffMemory } from "@/lib/diff/diff-memory";

const base = "---\nname: Real DB in tests\ndescription: Integration tests hit a real database\ntype: feedback\n---\nUse the real database.\n**Why:** mocks hid a bug.\n**How to apply:** all integration tests.\n";

describe("diffMemory", () => {
  it("shows frontmatter field by field and pairs edited body lines side by side", () => {
    const edited = base.replace("hit a real database", "hit a real PostgreSQL").replace("mocks hid a bug.", "mocks hid a migration bug.");
    const diff = diffMemory(base, edited);
    expect(diff.fields.filter((field) => field.isChanged)).toEqual([
      { field: "description", before: "Integration tests hit a real database", after: "Integration tests hit a real PostgreSQL", isChanged: true },
    ]);
    expect(diff.body).toContainEqual({ kind: "changed", before: "**Why:** mocks hid a bug.", after: "**Why:** mocks hid a migration bug." });
    expect(diff.body.filter((row) => row.kind === "same")).toHaveLength(2);
  });

  it("a new memory is all additions; a retirement is all removals", () => {
    const created = diffMemory(null, base);
    expect(created.isNew).toBe(true);
    expect(created.fields.every((field) => field.before === null)).toBe(true);
    expect(created.body.every((row) => row.kind === "added")).toBe(true);
    const retired = diffMemory(base, null);
    expect(retired.isRetirement).toBe(true);
    expect(retired.body.every((row) => row.kind === "removed")).toBe(true);
  });

  it("a field added or removed shows on its side only", () => {
    const diff = diffMemory(base, base.replace("type: feedback\n", "type: feedback\nid: 42\n"));
    expect(diff.fields.find((field) => field.field === "id")).toEqual({ field: "id", before: null, after: "42", isChanged: true });
  });
});
