import { describe, expect, it } from "vitest";
import { findDerivableContent } from "@/lib/memdir/find-derivable-content";

const kinds = (text: string): string[] => findDerivableContent(text).map((hit) => hit.kind);

describe("findDerivableContent", () => {
  it("F6: file:line citations and commit hashes", () => {
    expect(kinds("see lib/a.ts:12")).toEqual(["file-line"]);
    for (const citation of ["a.ts:12", "foo.test.ts:3", "app/page.tsx:42:7"]) expect(kinds(`see ${citation}`)).toEqual(["file-line"]);
    // A host and its port is not a file and a line.
    for (const text of ["postgres://app@db.internal.acme:5432/ledger", "the db is db.acme.internal:5432", "call api.example.com:443 first", "ci@build.example.com:22"]) expect(kinds(text)).toEqual([]);
    expect(kinds("fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8")).toEqual(["commit-hash"]);
  });

  it("F6: stack traces (JS and Python)", () => {
    expect(kinds("Error: x\n    at run (/app/a.js:3:9)\n    at main (/app/b.js:1:1)\n")).toContain("stack-trace");
    expect(kinds('Traceback (most recent call last):\n  File "a.py", line 3\n')).toEqual(["stack-trace"]);
    expect(kinds("at noon we meet\nat the office\n")).toEqual([]);
  });

  it("F6: code blocks longer than 10 lines, not short snippets", () => {
    expect(kinds("```ts\n" + "x;\n".repeat(11) + "```\n")).toEqual(["code-block"]);
    expect(kinds("```sh\nnpm test\n```\n")).toEqual([]);
  });

  it("F6: ordinary prose, dates, UUIDs and words like 'decade' are not derivable", () => {
    expect(kinds("Freeze on 2026-03-05 for release 3.2; id 550e8400-e29b-41d4-a716-446655440000; a decade ago; ratio 3:1")).toEqual([]);
  });
});
