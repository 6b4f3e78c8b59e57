import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { parseFrontmatter, parseMemoryHeader } from "@/lib/memdir/frontmatter";
import { readSimpleFrontmatter } from "@/lib/memdir/read-simple-frontmatter";

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
const PIECES = ["word", "fix", "12", "a:b", ": ", ":", " #", "#", " ", "  ", "\t", '"', "'", "\\", "[", "]", "{", "}", ",", "&x", "*x", "!", "|", ">", "%", "@", "`", "- ", "? ", "http://h", "é", "😀", "\uFEFF", "\r", "\u0007", "true", "null", "2026-01-01", "0x1F", "~", ".inf", "yes"];
const KEYS = ["name", "description", "type", "owner", "True", "null", "__proto__", "toString", "  nested", "- item", "# comment", "#", ""];

function yamlFrom(random: () => number): string {
  const lines: string[] = [];
  const lineCount = 1 + Math.floor(random() * 4);
  for (let line = 0; line < lineCount; line++) {
    // Mostly ordinary keys, so most cases are the flat frontmatter the fast paths are for.
    const key = random() < 0.75 ? KEYS[Math.floor(random() * 4)]! : KEYS[Math.floor(random() * KEYS.length)]!;
    let value = random() < 0.6 ? "word" : "";
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

// The C4 algorithm as it was before the fast paths: YAML, then once more with special values
// quoted. The fast paths must give exactly its fields and status.
const SIMPLE_LINE = /^([A-Za-z_][\w-]*):[ \t]+(.*\S)[ \t]*$/;
const YAML_SPECIAL = /[:#{}[\],&*!|>'"%@`]/;

function quoteSpecialValues(yaml: string): string {
  return yaml
    .split("\n")
    .map((line) => {
      const match = SIMPLE_LINE.exec(line);
      if (!match) return line;
      const [, key, value = ""] = match;
      const isQuoted = value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]);
      if (!YAML_SPECIAL.test(value) || isQuoted) return line;
      return `${key}: "${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
    })
    .join("\n");
}

function parseTwice(yaml: string): { fields: unknown; status: string } {
  let status = "ok";
  let data: unknown;
  try {
    data = matter(`---\n${yaml}---\n`, {}).data;
  } catch {
    status = "retried";
    try {
      data = matter(`---\n${quoteSpecialValues(yaml)}---\n`, {}).data;
    } catch {
      return { fields: {}, status: "invalid-yaml" };
    }
  }
  if (data === null || data === undefined) return { fields: {}, status: "ok" };
  if (typeof data !== "object" || Array.isArray(data) || data instanceof Date) return { fields: {}, status: "not-object" };
  return { fields: data, status };
}

describe("frontmatter fast paths", () => {
  it("C4: every frontmatter reads exactly as parse-then-retry through YAML reads it", () => {
    const random = createRandom(7);
    for (let index = 0; index < 30_000; index++) {
      const yaml = yamlFrom(random).replace(/\r\n/g, "\n"); // as parseFrontmatter normalises it
      const parsed = parseFrontmatter(`---\n${yaml}---\nBody\n`);
      if (parsed.status === "alias-limit") continue;
      expect({ fields: parsed.fields, status: parsed.status }, JSON.stringify(yaml)).toEqual(parseTwice(yaml));
    }
  });

  it("C4: claims a retry only where YAML does raise an error, so no memory reads differently", () => {
    const random = createRandom(11);
    const claimed = { ok: 0, retried: 0 };
    for (let index = 0; index < 50_000; index++) {
      const yaml = yamlFrom(random);
      const simple = readSimpleFrontmatter(yaml.replace(/\r\n/g, "\n"));
      if (!simple) continue;
      claimed[simple.status]++;
      expect(yamlThrows(yaml), yaml).toBe(simple.status === "retried");
    }
    // The corpus does exercise both outcomes of the fast path.
    expect(claimed.ok).toBeGreaterThan(300);
    expect(claimed.retried).toBeGreaterThan(150);
  });

  it("C4: reads the common note, a description holding `: ` or `#`, in one pass", () => {
    expect(readSimpleFrontmatter("name: Billing\ndescription: billing: invoices run nightly (see #12)\ntype: project\n")?.status).toBe("retried");
    expect(readSimpleFrontmatter("name: Billing\ndescription: invoices run nightly\ntype: project\n")?.status).toBe("ok");
    expect(readSimpleFrontmatter("name: 請求\ndescription: Rechnungen laufen nächtlich\n")).toBeNull(); // a value YAML must read
    expect(readSimpleFrontmatter("name: Billing\ndescription: Rechnungen laufen nächtlich\n")?.fields.description).toBe("Rechnungen laufen nächtlich");
    // After a comment the colon is not part of the value: YAML reads this fine, comment dropped.
    expect(readSimpleFrontmatter("description: invoices #note: nightly\n")).toBeNull();
  });

  it("C4: the fast path gives the same fields and status as parsing twice", () => {
    const header = parseMemoryHeader("---\nname: Billing\ndescription: billing: invoices run nightly (see #12)\ntype: project\n---\nBody\n");
    expect(header).toMatchObject({ name: "Billing", description: "billing: invoices run nightly (see #12)", type: "project", status: "retried" });
  });
});
