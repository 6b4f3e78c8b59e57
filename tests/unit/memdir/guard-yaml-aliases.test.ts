import { describe, expect, it } from "vitest";
import { countAliasReferences, exceedsNodeBudget } from "@/lib/memdir/guard-yaml-aliases";

describe("guard-yaml-aliases", () => {
  it("C4: counts aliases where YAML nodes start, not asterisks in text", () => {
    expect(countAliasReferences("a: *x\nb: [*x, *y]\nc:\n  - *z\nd: {k: *w}")).toBe(5);
    expect(countAliasReferences("description: use the *fast* path, 2 * 3")).toBe(0);
  });

  it("C4: measures shared references as if expanded, stopping at the budget", () => {
    const leaf = Array(10).fill("x");
    const level = Array(10).fill(leaf);
    const bomb = Array(10).fill(Array(10).fill(level));
    expect(exceedsNodeBudget(bomb, 10_000)).toBe(true);
    expect(exceedsNodeBudget({ a: leaf }, 10_000)).toBe(false);
    expect(exceedsNodeBudget(Array(1_000_000).fill(0), 10_000)).toBe(true);
  });
});
