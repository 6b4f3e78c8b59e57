import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkIndex } from "@/lib/memdir/check-index";

async function memoryDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-index-"));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

const memory = "---\nname: N\ndescription: D\ntype: user\n---\n";

describe("checkIndex", () => {
  it("I4: finds dangling links and orphans, but not team/ files (own index) or logs/", async () => {
    const dir = await memoryDir({
      "MEMORY.md": "- [A](a.md) — ok\n- [Gone](gone.md) — deleted\n",
      "a.md": memory,
      "orphan.md": memory,
      "team/MEMORY.md": "",
      "team/t.md": memory,
      "logs/2026/03/2026-03-01.md": "log",
    });
    const report = await checkIndex(dir);
    expect(report.dangling.map((link) => [link.line, link.file])).toEqual([[2, "gone.md"]]);
    expect(report.orphans.map((memory) => memory.path)).toEqual(["orphan.md"]);
    expect(report.findings.map((finding) => [finding.rule, finding.severity, finding.file])).toEqual([
      ["index-dangling", "error", "MEMORY.md"],
      ["index-orphan", "warning", "orphan.md"],
    ]);
  });

  it("C7: lines over 150 characters are reported by line number", async () => {
    const dir = await memoryDir({ "MEMORY.md": `- [A](a.md) — short\n- [B](b.md) — ${"x".repeat(150)}\n`, "a.md": memory, "b.md": memory });
    const report = await checkIndex(dir);
    expect(report.longLines).toEqual([2]);
    expect(report.findings.map((finding) => [finding.rule, finding.line])).toEqual([["index-long-line", 2]]);
  });

  it("I3: entries past the loaded window are listed and reported as index-truncated", async () => {
    const files: Record<string, string> = {};
    const lines = Array.from({ length: 205 }, (_, index) => `- [M${index}](m${index}.md)`);
    for (let index = 0; index < 205; index++) files[`m${index}.md`] = memory;
    const dir = await memoryDir({ ...files, "MEMORY.md": lines.join("\n") });
    const report = await checkIndex(dir);
    expect(report.entriesOutsideWindow.map((link) => link.file)).toEqual(["m200.md", "m201.md", "m202.md", "m203.md", "m204.md"]);
    expect(report.findings.find((finding) => finding.rule === "index-truncated")?.message).toMatch(/5 entries/);
  });

  it("S3: a MEMORY.md that is a named pipe is reported as not read, at once, and no memory is called an orphan", async () => {
    const dir = await memoryDir({ "a.md": memory });
    execFileSync("mkfifo", [path.join(dir, "MEMORY.md")]);
    const report = await checkIndex(dir);
    expect(report).toMatchObject({ text: "", unreadableReason: "not a regular file (a named pipe)", orphans: [] });
    expect(report.findings.map((finding) => [finding.file, finding.rule, finding.severity, finding.message])).toEqual([
      ["MEMORY.md", "unreadable", "error", "Not read: not a regular file (a named pipe)."],
    ]);
  });

  it("I5: a directory with no MEMORY.md reports every memory as an orphan warning", async () => {
    const report = await checkIndex(await memoryDir({ "a.md": memory }));
    expect(report).toMatchObject({ text: "", lines: 0, loaded: "" });
    expect(report.findings.map((finding) => [finding.rule, finding.severity])).toEqual([["index-orphan", "warning"]]);
  });
});
