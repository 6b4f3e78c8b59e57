import { describe, expect, it } from "vitest";
import { isMemoryFile, regenerateProjectIndex } from "@/lib/store/regenerate-project-index";

describe("regenerateProjectIndex", () => {
  it("lists memories newest first with name and description, skipping MEMORY.md and other files", () => {
    const index = regenerateProjectIndex([
      { path: "MEMORY.md", text: "- [Old](old.md)\n", updatedAt: new Date("2026-03-01") },
      { path: "old.md", text: "---\nname: Old one\ndescription: From January\n---\nx\n", updatedAt: new Date("2026-01-01") },
      { path: "new.md", text: "---\nname: New one\ndescription: From March\n---\nx\n", updatedAt: new Date("2026-03-01") },
      { path: "notes.txt", text: "not a memory", updatedAt: new Date("2026-04-01") },
      { path: "sub/nameless (draft).md", text: "no frontmatter\n", updatedAt: new Date("2026-02-01") },
    ]);
    expect(index).toBe(
      "- [New one](new.md) — From March\n- [nameless (draft)](sub/nameless%20%28draft%29.md)\n- [Old one](old.md) — From January\n",
    );
  });

  it("orders memories of the same age by path, and gives an empty index for no memories", () => {
    const same = new Date("2026-01-01");
    const files = [
      { path: "b.md", text: "---\nname: B\n---\n", updatedAt: same },
      { path: "a.md", text: "---\nname: A\n---\n", updatedAt: same },
    ];
    expect(regenerateProjectIndex(files)).toBe("- [A](a.md)\n- [B](b.md)\n");
    expect(regenerateProjectIndex([])).toBe("");
  });

  it("accepts only safe relative memory paths", () => {
    expect(isMemoryFile("feedback_x.md")).toBe(true);
    expect(isMemoryFile("sub/x.md")).toBe(true);
    for (const bad of ["MEMORY.md", "sub/MEMORY.md", "../x.md", "/x.md", "x.txt", "a//b.md", "%2e%2e/x.md", "a\nb.md"]) expect(isMemoryFile(bad)).toBe(false);
  });
});
