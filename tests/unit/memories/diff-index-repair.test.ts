import { describe, expect, it } from "vitest";
import { repairIndexText } from "@/lib/memdir/repair-index";
import type { IndexLink } from "@/lib/memdir/parse-index";
import type { ScannedMemory } from "@/lib/memdir/scan-memory-dir";
import { diffIndexRepair } from "@/lib/memories/diff-index-repair";

const link = (line: number, file: string): IndexLink => ({ line, file, title: file, hook: null });
const orphan = (path: string): ScannedMemory => ({ path, name: "New one", description: "what it is", type: "user", mtime: new Date(0), size: 1, frontmatter: "ok" });

describe("diffIndexRepair", () => {
  it("I4: shows dropped dangling lines as removed and orphans as added, with context around them", () => {
    const text = ["# Index", "- [A](a.md)", "- [Gone](gone.md)", "- [B](b.md)", "- [C](c.md)", "- [D](d.md)", "- [E](e.md)", "- [F](f.md)", ""].join("\n");
    const repair = repairIndexText({ text, dangling: [link(3, "gone.md")], orphans: [orphan("new.md")] });
    expect(diffIndexRepair(repair, [3])).toEqual([
      { kind: "context", line: 1, text: "# Index" },
      { kind: "context", line: 2, text: "- [A](a.md)" },
      { kind: "removed", line: 3, text: "- [Gone](gone.md)" },
      { kind: "context", line: 4, text: "- [B](b.md)" },
      { kind: "context", line: 5, text: "- [C](c.md)" },
      { kind: "gap", line: null, text: "" },
      { kind: "context", line: 7, text: "- [E](e.md)" },
      { kind: "context", line: 8, text: "- [F](f.md)" },
      { kind: "added", line: null, text: "- [New one](new.md) — what it is" },
    ]);
  });

  it("handles CRLF files and a last line without a newline", () => {
    const text = "- [A](a.md)\r\n- [Gone](gone.md)";
    const repair = repairIndexText({ text, dangling: [link(2, "gone.md")], orphans: [orphan("new.md")] });
    const diff = diffIndexRepair(repair, [2]);
    expect(diff.filter((line) => line.kind !== "context")).toEqual([
      { kind: "removed", line: 2, text: "- [Gone](gone.md)" },
      { kind: "added", line: null, text: "- [New one](new.md) — what it is" },
    ]);
  });
});
