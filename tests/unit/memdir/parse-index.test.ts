import { describe, expect, it } from "vitest";
import { parseIndex, parseIndexLine } from "@/lib/memdir/parse-index";

describe("parseIndex", () => {
  it("I1: reads title, target and hook with line numbers", () => {
    const links = parseIndex("# Index\n- [Concise replies](feedback_terse.md) — no summary\n* [Freeze](team/freeze.md): until 2026-03-05\n");
    expect(links).toEqual([
      { line: 2, title: "Concise replies", file: "feedback_terse.md", hook: "no summary" },
      { line: 3, title: "Freeze", file: "team/freeze.md", hook: "until 2026-03-05" },
    ]);
  });

  it("I1: decodes encoded targets and escaped titles; ignores web links and non-.md targets", () => {
    const links = parseIndex("- [a \\[b\\]](./my%20notes.md#top)\n- [site](https://x.dev/a.md)\n- [img](pic.png)\n");
    expect(links).toEqual([{ line: 1, title: "a [b]", file: "my notes.md", hook: null }]);
  });

  it("C7: links inside frontmatter or HTML comments do not count, line numbers still match the file", () => {
    const links = parseIndex("---\nx: 1\n---\n<!--\n- [Old](old.md)\n-->\n- [New](new.md)\r\n");
    expect(links).toEqual([{ line: 7, title: "New", file: "new.md", hook: null }]);
  });

  it("I1: reads CommonMark link destinations: balanced parentheses, escapes, angle brackets and a title", () => {
    const files = ["- [API v2](api(v2).md) — idempotency keys", "- [H](h\\(1\\).md): escaped", "- [F](<f g.md>) — spaced", '- [E](e.md "a title") — titled', "- [K](k.md 'single')", "- [L](l.md (paren title)) - t"].map(
      (line) => parseIndexLine(line)?.file,
    );
    expect(files).toEqual(["api(v2).md", "h(1).md", "f g.md", "e.md", "k.md", "l.md"]);
    expect(parseIndexLine("- [API v2](api(v2).md) — idempotency keys")?.hook).toBe("idempotency keys");
    expect(parseIndexLine("- [Open](api(v2.md) — unbalanced")).toBeNull();
  });
});
