import { describe, expect, it } from "vitest";
import { findJsonProblem } from "@/lib/http/find-json-problem";

const nested = (levels: number) => JSON.parse("[".repeat(levels) + "]".repeat(levels)) as unknown;

describe("findJsonProblem", () => {
  it("takes ordinary documents, emoji (surrogate pairs) included", () => {
    expect(findJsonProblem({ name: "Web Shop 🚀", items: [{ id: 1, ok: true, none: null }], "ключ": "значение" }, 64)).toBeNull();
    expect(findJsonProblem("plain", 64)).toBeNull();
    expect(findJsonProblem(null, 64)).toBeNull();
  });

  it("names the field holding a lone surrogate, high or low, and which one it is", () => {
    expect(findJsonProblem({ name: "s\ud800" }, 64)).toEqual({ field: "name", message: "holds a lone surrogate (U+D800); send valid Unicode text" });
    expect(findJsonProblem({ items: [{ ok: "fine" }, { note: "\udfff at the start" }] }, 64)).toEqual({ field: "items.1.note", message: "holds a lone surrogate (U+DFFF); send valid Unicode text" });
    expect(findJsonProblem({ text: "pair 🚀 then lone \ud83d" }, 64)?.message).toMatch(/U\+D83D/);
    expect(findJsonProblem("s\ud800", 64)?.field).toBe("body");
  });

  it("names the object whose key holds a lone surrogate", () => {
    expect(findJsonProblem({ provenance: { ["k\udc00"]: 1 } }, 64)).toEqual({ field: "provenance", message: "a key holds a lone surrogate (U+DC00); send valid Unicode text" });
    expect(findJsonProblem({ ["k\ud800"]: 1 }, 64)?.field).toBe("body");
  });

  it("reports the first problem in document order", () => {
    expect(findJsonProblem({ first: "a\ud800", second: "b\ud801" }, 64)?.field).toBe("first");
  });

  it("takes nesting up to the limit and refuses one level more, at any depth without overflowing", () => {
    expect(findJsonProblem(nested(64), 64)).toBeNull();
    expect(findJsonProblem(nested(65), 64)).toEqual({ field: "body", message: "nested deeper than 64 levels" });
    expect(findJsonProblem(nested(100_000), 64)?.message).toBe("nested deeper than 64 levels");
  });
});
