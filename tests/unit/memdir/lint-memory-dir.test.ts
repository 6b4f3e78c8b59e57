import { mkdir, mkdtemp, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintMemoryDir } from "@/lib/memdir/lint-memory-dir";

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
});
