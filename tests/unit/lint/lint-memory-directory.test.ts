import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintMemoryDirectory } from "@/lib/lint/lint-memory-directory";

const memory = "---\nname: Release manager\ndescription: Ann is the release manager for the mobile app\ntype: user\n---\nBody\n";
// Built at run time: no literal credential in the repository.
const TOKEN = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");

async function put(dir: string, relativePath: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(path.join(dir, relativePath)), { recursive: true });
  await writeFile(path.join(dir, relativePath), content);
}

async function lintOf(files: Record<string, string | Buffer>): Promise<Awaited<ReturnType<typeof lintMemoryDirectory>>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "lint-directory-"));
  for (const [file, content] of Object.entries(files)) await put(dir, file, content);
  return lintMemoryDirectory(dir);
}

describe("lintMemoryDirectory", () => {
  it("C12: reports what sync and propose would refuse, with their reasons: errors in team/, warnings elsewhere", async () => {
    const { findings, hasErrors } = await lintOf({
      "ctrl\u0001\u001b[31mred.md": memory,
      "new\nline.md": memory,
      "\uFF0E\uFF0E.md": memory,
      [`${"x".repeat(101)}.md`]: memory,
      "a/b/c/d/deep.md": memory,
      "team/a/b/c/ok-in-team.md": memory,
      "team/big.md": `${memory}${"y".repeat(300_000)}\n`,
      "binary.md": Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x00, 0x0a]),
    });
    const travel = findings.filter((finding) => ["invalid-name", "too-large", "not-utf8"].includes(finding.rule));
    expect(travel.map((finding) => [finding.file, finding.rule, finding.severity])).toEqual([
      ["\uFF0E\uFF0E.md", "invalid-name", "warning"],
      ["a/b/c/d/deep.md", "invalid-name", "warning"],
      ["binary.md", "not-utf8", "warning"],
      ["ctrl\u0001\u001b[31mred.md", "invalid-name", "warning"],
      ["new\nline.md", "invalid-name", "warning"],
      ["team/big.md", "too-large", "error"],
      [`${"x".repeat(101)}.md`, "invalid-name", "warning"],
    ]);
    const messageOf = (file: string) => travel.find((finding) => finding.file === file)?.message;
    expect(messageOf("new\nline.md")).toBe("teammem propose refuses this file: the name contains an invisible or control character (U+000A).");
    expect(messageOf("a/b/c/d/deep.md")).toMatch(/more than 3 folders deep/);
    expect(messageOf(`${"x".repeat(101)}.md`)).toMatch(/longer than 100 bytes/);
    expect(messageOf("team/big.md")).toBe("teammem sync leaves this file out of the team store: it is larger than 250,000 bytes (Claude Code's team sync limit).");
    expect(hasErrors).toBe(true);
  });

  it("T3: a credential in a file name is a secret error, and the name is masked wherever a finding shows it", async () => {
    const { findings } = await lintOf({ [`reference_${TOKEN}.md`]: memory, "MEMORY.md": `- [Bot](reference_${TOKEN}.md) — the deploy bot\n- [Gone](gone_${TOKEN}.md)\n` });
    expect(JSON.stringify(findings)).not.toContain(TOKEN.slice(4));
    const secret = findings.find((finding) => finding.rule === "secret");
    expect(secret).toMatchObject({ severity: "error", file: "reference_[REDACTED:github-classic-token ghp_…aE4y].md" });
    expect(secret?.message).toMatch(/^The file name holds what looks like a credential \(github-classic-token\)/);
    expect(findings.find((finding) => finding.rule === "index-dangling")?.message).toMatch(/links to gone_\[REDACTED:github-classic-token ghp_…aE4y\]\.md/);
  });

  it("S3: named pipes called MEMORY.md, team/MEMORY.md and x.md are each reported, and lint returns", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "lint-directory-"));
    await put(dir, "a.md", memory);
    await mkdir(path.join(dir, "team"));
    for (const file of ["MEMORY.md", "team/MEMORY.md", "x.md"]) execFileSync("mkfifo", [path.join(dir, file)]);
    const { findings } = await lintMemoryDirectory(dir);
    expect(findings.map((finding) => [finding.file, finding.rule, finding.message])).toEqual([
      ["MEMORY.md", "unreadable", "Not read: not a regular file (a named pipe)."],
      ["team/MEMORY.md", "unreadable", "Not read: not a regular file (a named pipe)."],
      ["x.md", "unreadable", "Not read: not a regular file (a named pipe)."],
    ]);
  });

  it("T4: a daily log needs no frontmatter and no index line, but a secret in it is still an error", async () => {
    const log = "## Kafka retention\n- 10:30 retention is 7 days on the events cluster\n";
    const clean = await lintOf({ "MEMORY.md": "- [Release manager](a.md) — Ann\n", "a.md": memory, "logs/2026/12/2026-12-02.md": log });
    expect(clean).toEqual({ findings: [], hasErrors: false });

    const { findings, hasErrors } = await lintOf({
      "MEMORY.md": "- [Release manager](a.md) — Ann\n- [Notes](logs/notes.md) — notes\n",
      "a.md": memory,
      "logs/2026/12/2026-12-03.md": `${log}- 11:00 deploy token ${TOKEN}\n`,
      "logs/notes.md": "Not a daily log, so a memory like any other.\n",
    });
    expect(findings.map((finding) => [finding.file, finding.rule, finding.severity])).toEqual([
      ["logs/2026/12/2026-12-03.md", "secret", "error"],
      ["logs/notes.md", "frontmatter-invalid", "error"],
    ]);
    expect(hasErrors).toBe(true);
  });
});
