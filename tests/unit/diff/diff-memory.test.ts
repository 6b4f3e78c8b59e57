import { describe, expect, it } from "vitest";
import { diffMemory } from "@/lib/diff/diff-memory";

const base = "---\nname: Real DB in tests\ndescription: Integration tests hit a real database\ntype: feedback\n---\nUse the real database.\n**Why:** mocks hid a bug.\n**How to apply:** all integration tests.\n";

describe("diffMemory", () => {
  it("shows frontmatter field by field and pairs edited body lines side by side", () => {
    const edited = base.replace("hit a real database", "hit a real PostgreSQL").replace("mocks hid a bug.", "mocks hid a migration bug.");
    const diff = diffMemory(base, edited);
    expect(diff.fields.filter((field) => field.isChanged).map(({ field, before, after }) => ({ field, before, after }))).toEqual([
      { field: "description", before: "Integration tests hit a real database", after: "Integration tests hit a real PostgreSQL" },
    ]);
    expect(diff.body.filter((row) => row.kind === "changed").map(({ before, after }) => ({ before, after }))).toEqual([{ before: "**Why:** mocks hid a bug.", after: "**Why:** mocks hid a migration bug." }]);
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

  it("marks the changed words inside a changed line and a changed field", () => {
    const diff = diffMemory(base, base.replace("mocks hid a bug.", "mocks hid a migration bug.").replace("hit a real database", "hit a real PostgreSQL"));
    const row = diff.body.find((candidate) => candidate.kind === "changed")!;
    const changed = (pieces: { text: string; isChanged: boolean }[]) => pieces.filter((piece) => piece.isChanged).map((piece) => piece.text.trim()).filter(Boolean);
    expect(changed(row.words!.after)).toEqual(["migration"]);
    expect(changed(row.words!.before)).toEqual([]);
    expect(row.words!.after.map((piece) => piece.text).join("")).toBe(row.after);
    const field = diff.fields.find((candidate) => candidate.field === "description")!;
    expect(changed(field.words!.before)).toEqual(["database"]);
    expect(changed(field.words!.after)).toEqual(["PostgreSQL"]);
  });
});
