import { describe, expect, it } from "vitest";
import { isVague, validateMemory } from "@/lib/memdir/validate-memory";

const mtime = new Date(Date.UTC(2026, 2, 1, 12)); // a Sunday
const good = (type: string, body = "The rule.\n**Why:** an incident.\n**How to apply:** always.\n"): string =>
  `---\nname: Merge freeze\ndescription: Mobile release freezes merges of non-urgent PRs\ntype: ${type}\n---\n${body}`;
const rules = (text: string): string[] => validateMemory({ file: "m.md", text, mtime }).map((finding) => finding.rule);

describe("validateMemory", () => {
  it("F7: the example memory has no findings", () => {
    expect(rules(good("feedback"))).toEqual([]);
    expect(rules(good("user", "Plain body.\n"))).toEqual([]);
  });

  it("a bidirectional override or isolate in the text is an error on its line; right-to-left words and the LRM mark are not", () => {
    const reversed = validateMemory({ file: "m.md", text: good("feedback", "Run the script \u202etxt.exe before deploy.\n**Why:** an incident.\n**How to apply:** always.\n"), mtime });
    expect(reversed.map((finding) => [finding.rule, finding.severity, finding.line])).toEqual([["hidden-text", "error", 6]]);
    expect(reversed[0]!.message).toContain("U+202E");
    expect(rules(good("feedback", "Greet Hebrew users with שלום\u200e first.\n**Why:** an incident.\n**How to apply:** always.\n"))).toEqual([]);
  });

  it("F2: an unknown type is an error, a missing type a warning", () => {
    const unknown = validateMemory({ file: "m.md", text: good("todo"), mtime });
    expect(unknown.map((finding) => [finding.rule, finding.severity])).toEqual([["unknown-type", "error"]]);
    expect(rules(good("").replace("type: \n", ""))).toEqual(["missing-type"]);
  });

  it("F5: missing and vague descriptions", () => {
    expect(rules("---\nname: A\ntype: user\n---\n")).toEqual(["missing-description"]);
    expect(rules("---\nname: A\ndescription: User preferences\ntype: user\n---\n")).toEqual(["vague-description"]);
    expect(isVague("general project notes and info")).toBe(true);
    expect(isVague("user does not want a summary at the end of each response")).toBe(false);
  });

  it("C4: a description or name starting with # is a YAML comment, and the finding says so and to quote it", () => {
    const findings = validateMemory({ file: "m.md", text: "---\nname: #1 goal\ndescription: #1 priority this quarter is checkout latency\ntype: user\n---\n", mtime });
    expect(findings.map((finding) => [finding.rule, finding.severity])).toEqual([["missing-name", "warning"], ["missing-description", "error"]]);
    for (const finding of findings) {
      expect(finding.message).toMatch(/starts with `#`, which YAML reads as the start of a comment/);
      expect(finding.fix).toMatch(/double quotes/);
    }
    // Quoted, it is text; and a line with no value at all is still plainly "no description".
    expect(rules('---\nname: A\ndescription: "#1 priority this quarter is checkout latency"\ntype: user\n---\n')).toEqual([]);
    expect(validateMemory({ file: "m.md", text: "---\nname: A\ndescription: # TODO\ntype: user\n---\n", mtime })[0]?.message).toContain("starts with `#`");
    expect(validateMemory({ file: "m.md", text: "---\nname: A\ndescription:\ntype: user\n---\n", mtime })[0]?.message).toMatch(/^The frontmatter has no `description`/);
  });

  it("C4: a frontmatter refused for its many aliases gets a fix about aliases, not the generic one", () => {
    const anchors = `k: [${Array.from({ length: 200 }, () => "*a").join(", ")}]`;
    const [finding] = validateMemory({ file: "m.md", text: `---\nbase: &a [x, y]\n${anchors}\nname: n\n---\nBody.\n`, mtime }).filter((item) => item.rule === "frontmatter-invalid");
    expect(finding?.message).toMatch(/aliases/);
    expect(finding?.fix).toMatch(/instead of referring to it with `\*alias`/);
  });

  it("F3: feedback and project bodies need Why and How to apply", () => {
    expect(rules(good("project", "Just the fact.\n"))).toEqual(["missing-why", "missing-how-to-apply"]);
    expect(rules(good("project", "Fact.\n**Why:** reason.\n"))).toEqual(["missing-how-to-apply"]);
  });

  it("F4: relative dates in project memories get the absolute date from the mtime", () => {
    const findings = validateMemory({ file: "m.md", text: good("project", "Freeze after Thursday.\n**Why:** release.\n**How to apply:** hold PRs.\n"), mtime });
    expect(findings).toEqual([
      expect.objectContaining({ rule: "relative-date", line: 6, fix: expect.stringContaining("with 2026-03-05") }),
    ]);
  });

  it("F4: relative dates in feedback memories are not flagged", () => {
    expect(rules(good("feedback", "Say hi tomorrow.\n**Why:** x.\n**How to apply:** y.\n"))).toEqual([]);
  });

  it("F6: derivable content is a warning with the line it is on", () => {
    const body = "Fact.\n**Why:** see src/app/page.tsx:42 and commit 3f2a9c1d.\n**How to apply:** x.\n";
    const findings = validateMemory({ file: "m.md", text: good("feedback", body), mtime });
    expect(findings.map((finding) => [finding.rule, finding.severity, finding.line])).toEqual([
      ["derivable-content", "warning", 7],
      ["derivable-content", "warning", 7],
    ]);
    expect(findings[0]?.message).toMatch(/^A file:line citation \(.*page\.tsx:42.*\): the repository already records this, and a copy in memory drifts out of date\.$/);
  });

  it("C4: broken frontmatter is one frontmatter-invalid error, not a list of missing fields", () => {
    expect(validateMemory({ file: "m.md", text: "no frontmatter at all\n", mtime }).map((finding) => [finding.rule, finding.severity])).toEqual([
      ["frontmatter-invalid", "error"],
    ]);
    const late = `---\n${"k: v\n".repeat(30)}description: too late\ntype: user\n---\n`;
    expect(validateMemory({ file: "m.md", text: late, mtime })[0]?.message).toMatch(/first 30 lines/);
  });

  it("C4: a key given twice is named, instead of calling the frontmatter invalid even when quoted", () => {
    const [finding, ...others] = validateMemory({ file: "m.md", text: "---\nname: A\ndescription: first\ndescription: second\ntype: user\n---\n", mtime });
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ rule: "frontmatter-invalid", severity: "error", fix: "Keep one `description:` line and remove the others." });
    expect(finding?.message).toMatch(/^The frontmatter gives `description` more than once/);
  });

  it("F1, F5: a description or name that YAML reads as a mapping must be text, not missing", () => {
    const findings = validateMemory({ file: "m.md", text: "---\nname: [a, b]\ndescription: {a: 1}\ntype: user\n---\n", mtime });
    expect(findings.map((finding) => finding.rule)).toEqual(["missing-name", "missing-description"]);
    expect(findings[0]?.message).toMatch(/^The `name` must be text, but YAML reads it as a list, so indexes/);
    expect(findings[1]?.message).toMatch(/^The `description` must be text, but YAML reads it as a mapping/);
  });

  it("C4: values that parse only once quoted are a warning", () => {
    const text = "---\nname: A\ndescription: fix: the #2 case for the importer\ntype: user\n---\n";
    expect(validateMemory({ file: "m.md", text, mtime }).map((finding) => [finding.rule, finding.severity])).toEqual([["frontmatter-invalid", "warning"]]);
  });
});
