import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { isCertainYamlError, parseMemoryHeader } from "@/lib/memdir/frontmatter";

/** Deterministic: the same corpus on every run. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

// Pieces chosen to hit YAML's edge cases: indicators, quotes, comments, colons with and without
// a space, tabs, flow collections, block scalars, anchors and indentation.
const PIECES = ["word", "fix", "12", "a:b", ": ", ":", " #", "#", " ", "\t", '"', "'", "[", "]", "{", "}", ",", "&x", "*x", "!", "|", ">", "%", "@", "`", "- ", "? ", "http://h", "é"];
const KEYS = ["name", "description", "type", "owner", "  nested", "- item", "# comment", ""];

function yamlFrom(random: () => number): string {
  const lines: string[] = [];
  const lineCount = 1 + Math.floor(random() * 4);
  for (let line = 0; line < lineCount; line++) {
    const key = KEYS[Math.floor(random() * KEYS.length)]!;
    let value = random() < 0.7 ? "word" : "";
    const pieceCount = Math.floor(random() * 5);
    for (let piece = 0; piece < pieceCount; piece++) value += PIECES[Math.floor(random() * PIECES.length)];
    lines.push(key === "" || key.startsWith("#") ? key : `${key}: ${value}`);
  }
  return lines.join("\n") + "\n";
}

function yamlThrows(yaml: string): boolean {
  try {
    matter(`---\n${yaml}---\n`, {});
    return false;
  } catch {
    return true;
  }
}

describe("isCertainYamlError (the frontmatter fast path)", () => {
  it("C4: claims an error only where YAML does raise one, so no memory reads differently", () => {
    const random = createRandom(11);
    let claimed = 0;
    for (let index = 0; index < 50_000; index++) {
      const yaml = yamlFrom(random);
      if (!isCertainYamlError(yaml)) continue;
      claimed++;
      expect(yamlThrows(yaml), yaml).toBe(true);
    }
    expect(claimed).toBeGreaterThan(300); // the corpus does exercise the fast path
  });

  it("C4: recognises the common note, a description holding `: ` or `#`", () => {
    expect(isCertainYamlError("name: Billing\ndescription: billing: invoices run nightly (see #12)\ntype: project\n")).toBe(true);
    expect(isCertainYamlError("name: Billing\ndescription: invoices run nightly\ntype: project\n")).toBe(false);
    // After a comment the colon is not part of the value: YAML reads this fine.
    expect(isCertainYamlError("description: invoices #note: nightly\n")).toBe(false);
  });

  it("C4: the fast path gives the same fields and status as parsing twice", () => {
    const header = parseMemoryHeader("---\nname: Billing\ndescription: billing: invoices run nightly (see #12)\ntype: project\n---\nBody\n");
    expect(header).toMatchObject({ name: "Billing", description: "billing: invoices run nightly (see #12)", type: "project", status: "retried" });
  });
});
