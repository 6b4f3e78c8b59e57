import { describe, expect, it } from "vitest";
import { isWeakSearchTerm } from "@/lib/recall/is-weak-search-term";

describe("isWeakSearchTerm", () => {
  it("bug-03: a bare number (from a version, a time or a date) cannot make a match alone", () => {
    for (const term of ["23", "15", "2026", "02", "11"]) expect(isWeakSearchTerm(term)).toBe(true);
  });

  it("keeps words with digits topical: p99, v2, e2e, k8s", () => {
    for (const term of ["p99", "v2", "e2e", "k8s", "payflow"]) expect(isWeakSearchTerm(term)).toBe(false);
  });

  it("everyday English words stay weak", () => {
    expect(isWeakSearchTerm("back")).toBe(true);
  });
});
