import { describe, expect, it } from "vitest";
import { buildIndex, formatIndexLine } from "@/lib/memdir/build-index";
import { parseIndex } from "@/lib/memdir/parse-index";

describe("buildIndex", () => {
  it("I1: one `- [Title](file.md) — hook` line per memory that parseIndex reads back", () => {
    const entries = [
      { file: "user_role.md", title: "User role", hook: "data scientist" },
      { file: "team/my notes (old).md", title: "Notes [draft]", hook: null },
      { file: "c#_notes.md", title: "C# notes", hook: null },
      { file: "why?.md", title: "Why", hook: null },
    ];
    const text = buildIndex(entries);
    expect(text.split("\n")[0]).toBe("- [User role](user_role.md) — data scientist");
    expect(text.split("\n")[2]).toBe("- [C# notes](c%23_notes.md)");
    expect(parseIndex(text).map(({ file, title, hook }) => ({ file, title, hook }))).toEqual(entries);
  });

  it("I1: a newline in a hook cannot break the one-line rule", () => {
    expect(formatIndexLine({ file: "a.md", title: "A", hook: "one\ntwo" })).toBe("- [A](a.md) — one two");
  });
});
