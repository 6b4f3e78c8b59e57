import { mkdir, mkdtemp, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { LintRule } from "@/lib/memdir/lint-finding";
import { lintMemoryDir } from "@/lib/memdir/lint-memory-dir";

/** A requirement id such as F4 or C12: defined in docs/memory-format.md, never shown to people. */
const REQUIREMENT_ID = /\b[FISRAPXTGC]\d{1,2}\b/;

async function put(dir: string, relativePath: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, relativePath)), { recursive: true });
  await writeFile(path.join(dir, relativePath), content);
}

describe("lintMemoryDir", () => {
  it("reports memory, symlink and index findings for the root and team/ with paths relative to the directory", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-lint-"));
    const outside = await mkdtemp(path.join(os.tmpdir(), "memdir-outside-"));
    await put(outside, "x.md", "---\ndescription: outside\n---\n");
    await put(dir, "MEMORY.md", "- [Good](good.md) — fine\n");
    await put(dir, "good.md", "---\nname: Good\ndescription: Tests must hit a real database, never mocks\ntype: user\n---\nBody\n");
    await put(dir, "team/MEMORY.md", "- [Gone](gone.md)\n");
    await put(dir, "team/freeze.md", "---\nname: Freeze\ndescription: Mobile release merge freeze for non-urgent PRs\ntype: project\n---\nFreeze until next Friday.\n**Why:** release.\n**How to apply:** hold PRs.\n");
    await utimes(path.join(dir, "team/freeze.md"), new Date("2026-03-01T12:00:00Z"), new Date("2026-03-01T12:00:00Z"));
    await symlink(path.join(outside, "x.md"), path.join(dir, "escape.md"));
    const report = await lintMemoryDir(dir);
    expect(report.findings.map((finding) => [finding.file, finding.rule, finding.severity])).toEqual([
      ["escape.md", "symlink-escape", "error"],
      ["team/freeze.md", "index-orphan", "warning"],
      ["team/freeze.md", "relative-date", "warning"],
      ["team/MEMORY.md", "index-dangling", "error"],
    ]);
    expect(report.findings.find((finding) => finding.rule === "relative-date")?.fix).toContain("2026-03-06");
    expect(report.hasErrors).toBe(true);
  });

  it("a clean directory has no findings and no errors", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-lint-"));
    await put(dir, "MEMORY.md", "- [A](a.md)\n");
    await put(dir, "a.md", "---\nname: A\ndescription: Ann is the release manager for the mobile app\ntype: user\n---\n");
    expect(await lintMemoryDir(dir)).toEqual({ findings: [], hasErrors: false });
  });

  it("every kind of finding says what is wrong and what to do, in words and without requirement ids", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-lint-"));
    const outside = await mkdtemp(path.join(os.tmpdir(), "memdir-outside-"));
    await put(outside, "x.md", "---\ndescription: outside\n---\n");
    const memory = (fields: string, body = "Body\n"): string => `---\n${fields}\n---\n${body}`;
    await put(dir, "no-frontmatter.md", "Just a note.\n");
    await put(dir, "quoted.md", memory("name: Q\ndescription: fix: the #2 case for the importer\ntype: user"));
    await put(dir, "unknown-type.md", memory("name: U\ndescription: The team prefers tabs in Makefiles\ntype: opinion"));
    await put(dir, "untitled.md", memory("description: Ann is the release manager for mobile"));
    await put(dir, "no-description.md", memory("name: N\ntype: user"));
    await put(dir, "vague.md", memory("name: V\ndescription: user preferences\ntype: user"));
    await put(dir, "feedback.md", memory("name: F\ndescription: User wants answers without a closing summary\ntype: feedback", "No summaries.\n"));
    await put(dir, "freeze.md", memory("name: Z\ndescription: Mobile release merge freeze for non-urgent PRs\ntype: project", "Freeze until next Friday.\n**Why:** release.\n**How to apply:** hold PRs.\n"));
    await put(dir, "derivable.md", memory("name: D\ndescription: Upload retries are capped so the queue never stalls\ntype: reference", "See src/upload/retry.ts:42.\n"));
    await symlink(path.join(outside, "x.md"), path.join(dir, "escape.md"));
    await symlink(path.join(outside, "missing.md"), path.join(dir, "broken.md"));
    const entries = Array.from({ length: 210 }, (_, index) => `- [Entry ${index}](gone-${index}.md) — ${index === 0 ? "x".repeat(160) : "gone"}`);
    await put(dir, "MEMORY.md", entries.join("\n") + "\n");

    const { findings } = await lintMemoryDir(dir);
    const expectedRules: LintRule[] = [
      "frontmatter-invalid", "unknown-type", "missing-type", "missing-name", "missing-description", "vague-description",
      "missing-why", "missing-how-to-apply", "relative-date", "derivable-content", "unreadable", "symlink-escape",
      "index-dangling", "index-orphan", "index-long-line", "index-truncated",
    ];
    expect(new Set(findings.map((finding) => finding.rule))).toEqual(new Set(expectedRules));
    expect(findings.some((finding) => finding.rule === "frontmatter-invalid" && finding.severity === "warning")).toBe(true);
    for (const finding of findings) {
      const text = `${finding.message}\n${finding.fix ?? ""}`;
      expect(text, finding.rule).not.toMatch(REQUIREMENT_ID);
      expect(finding.message, finding.rule).toMatch(/\.$/);
      expect(finding.fix, `${finding.rule} says what to do`).toBeTruthy();
    }
    expect(findings.find((finding) => finding.rule === "index-orphan" && finding.file === "vague.md")?.message).toBe(
      "vague.md is not listed in MEMORY.md, so an agent reading the index does not know it exists (only recall can still find it).",
    );
  });

  it("S3: a memory whose name is not UTF-8 is reported for its name, with a rename as the fix", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-lint-"));
    await put(dir, "MEMORY.md", "");
    await writeFile(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6d, 0x64])]), "---\nname: Cafe\ndescription: Cafe booking API needs a day's notice\ntype: reference\n---\n");
    const { findings } = await lintMemoryDir(dir);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ file: "caf\uFFFD.md", rule: "unreadable", severity: "error" });
    expect(findings[0]?.message).toMatch(/^Not read: name is not valid UTF-8 .*rename it\.$/);
    expect(findings[0]?.message).not.toContain("disappeared");
    expect(findings[0]?.fix).toMatch(/^Rename it to a UTF-8 name/);
  });

  it("T1: index findings in team/ name team/MEMORY.md and the command that repairs it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-lint-"));
    const memory = "---\nname: M\ndescription: Staging deploys need a second approver from platform\ntype: user\n---\n";
    await put(dir, "MEMORY.md", "- [Gone](gone.md)\n");
    await put(dir, "root-orphan.md", memory);
    await put(dir, "team/MEMORY.md", "- [Gone](gone.md)\n");
    await put(dir, "team/orphan.md", memory);
    const { findings } = await lintMemoryDir(dir);
    const text = (file: string, rule: LintRule) => {
      const finding = findings.find((candidate) => candidate.file === file && candidate.rule === rule);
      return `${finding?.message} | ${finding?.fix}`;
    };
    expect(text("team/orphan.md", "index-orphan")).toBe(
      "team/orphan.md is not listed in team/MEMORY.md, so an agent reading the index does not know it exists (only recall can still find it). | Add a one-line entry for it to team/MEMORY.md (`teammem index DIR/team --fix` adds one).",
    );
    expect(text("team/MEMORY.md", "index-dangling")).toContain("(`teammem index DIR/team --fix` does)");
    // The root's own index keeps its words.
    expect(text("root-orphan.md", "index-orphan")).toBe(
      "root-orphan.md is not listed in MEMORY.md, so an agent reading the index does not know it exists (only recall can still find it). | Add a one-line entry for it to MEMORY.md (`teammem index DIR --fix` adds one).",
    );
    expect(text("MEMORY.md", "index-dangling")).toContain("(`teammem index DIR --fix` does)");
  });
});
