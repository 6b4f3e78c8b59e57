import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_MEMORY_FILES, scanMemoryDir } from "@/lib/memdir/scan-memory-dir";

const tempDir = (prefix: string): Promise<string> => mkdtemp(path.join(os.tmpdir(), prefix));

async function put(dir: string, relativePath: string, content: string | Buffer, mtime?: Date): Promise<void> {
  const file = path.join(dir, relativePath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  if (mtime) await utimes(file, mtime, mtime);
}

const memory = (description: string, type = "project"): string => `---\nname: N\ndescription: ${description}\ntype: ${type}\n---\nBody\n`;

describe("scanMemoryDir", () => {
  it("S1, C5: every *.md at any depth except MEMORY.md, relative paths with /", async () => {
    const dir = await tempDir("memdir-scan-");
    await put(dir, "MEMORY.md", "- [a](a.md)\n");
    await put(dir, "a.md", memory("top"));
    await put(dir, "team/MEMORY.md", "index");
    await put(dir, "team/b.md", memory("team one"));
    await put(dir, "logs/2026/03/2026-03-01.md", "log");
    await put(dir, "notes.txt", "not a memory");
    const scan = await scanMemoryDir(dir);
    expect(scan.memories.map((memory) => memory.path).sort()).toEqual(["a.md", "logs/2026/03/2026-03-01.md", "team/b.md"]);
  });

  it("S4: files sharing one mtime (as sync writes them) come in path order, as the server's read model gives them", async () => {
    const dir = await tempDir("memdir-scan-");
    const committedAt = new Date(Date.UTC(2026, 2, 1));
    for (const name of ["b.md", "Zeta.md", "a.md", "team/x.md", "A.md"]) await put(dir, name, memory(name), committedAt);
    const scan = await scanMemoryDir(dir);
    expect(scan.memories.map((memory) => memory.path)).toEqual(["A.md", "Zeta.md", "a.md", "b.md", "team/x.md"]);
  });

  it("S2, S4: newest first by mtime; only the newest 200 unless all are asked for", async () => {
    const dir = await tempDir("memdir-scan-");
    const start = Date.UTC(2026, 0, 1);
    for (let index = 0; index < MAX_MEMORY_FILES + 5; index++) {
      await put(dir, `m${index}.md`, memory(`number ${index}`), new Date(start + index * 60_000));
    }
    const scan = await scanMemoryDir(dir);
    expect(scan.total).toBe(205);
    expect(scan.memories).toHaveLength(200);
    expect(scan.memories[0]?.path).toBe("m204.md");
    expect(scan.memories.at(-1)?.path).toBe("m5.md");
    expect((await scanMemoryDir(dir, { all: true })).memories).toHaveLength(205);
  });

  it("S3, C4: hostile files never break a scan and stay listed (legacy files are usable)", async () => {
    const dir = await tempDir("memdir-scan-");
    await put(dir, "no-frontmatter.md", "Just text\n");
    await put(dir, "unclosed.md", "---\nname: x\ndescription: y\n");
    await put(dir, "bad-yaml.md", "---\nname: [oops\n  - : :\n\t- x\n---\n");
    await put(dir, "empty.md", "");
    await put(dir, "binary.md", Buffer.from([0, 255, 254, 0, 10, 13, 0, 1, 2, 3]));
    await put(dir, "bom-crlf.md", "\uFEFF---\r\ndescription: windows\r\ntype: user\r\n---\r\n");
    await put(dir, "big.md", `---\ndescription: huge\n---\n${"z".repeat(100)}\n`.padEnd(6 * 1024 * 1024, "z"));
    // Only YAML reads this one (quoted and folded values): the scan loads its YAML reader for it.
    await put(dir, "yaml-only.md", '---\nname: "Quoted: name"\ndescription: >\n  folded\n  text\ntype: feedback\n---\nBody\n');
    const scan = await scanMemoryDir(dir);
    expect(scan.skipped).toEqual([]);
    const byPath = new Map(scan.memories.map((memory) => [memory.path, memory]));
    expect(byPath.size).toBe(8);
    expect(byPath.get("yaml-only.md")).toMatchObject({ name: "Quoted: name", description: "folded text", type: "feedback", frontmatter: "ok" });
    expect(byPath.get("unclosed.md")).toMatchObject({ description: null, frontmatter: "unclosed" });
    expect(byPath.get("bad-yaml.md")).toMatchObject({ description: null, frontmatter: "invalid-yaml" });
    expect(byPath.get("bom-crlf.md")).toMatchObject({ description: "windows", type: "user" });
    expect(byPath.get("big.md")).toMatchObject({ description: "huge", size: 6 * 1024 * 1024 });
  });

  it("C4: a CRLF frontmatter closing on line 30 is read, as the same file with LF is", async () => {
    const dir = await tempDir("memdir-scan-");
    const lines = ["---", "name: thirty", "description: payments retry policy", "type: reference"];
    while (lines.length < 29) lines.push(`extra${lines.length}: value`);
    lines.push("---", "body");
    await put(dir, "crlf.md", lines.join("\r\n") + "\r\n");
    await put(dir, "lf.md", lines.join("\n") + "\n");
    for (const memory of (await scanMemoryDir(dir)).memories) {
      expect(memory, memory.path).toMatchObject({ name: "thirty", description: "payments retry policy", type: "reference", frontmatter: "ok" });
    }
  });

  it("S2: a frontmatter past the first 64 KB counts as not closed (teammem reads no more of a head)", async () => {
    const dir = await tempDir("memdir-scan-");
    await put(dir, "huge-value.md", `---\nname: long\ndescription: ${"x".repeat(65_536)}\ntype: user\n---\nbody\n`);
    await put(dir, "long-value.md", `---\nname: long\ndescription: ${"x".repeat(65_000)}\ntype: user\n---\nbody\n`);
    const byPath = new Map((await scanMemoryDir(dir)).memories.map((memory) => [memory.path, memory]));
    expect(byPath.get("huge-value.md")).toMatchObject({ name: null, frontmatter: "unclosed" });
    expect(byPath.get("long-value.md")).toMatchObject({ name: "long", type: "user", frontmatter: "ok" });
  });

  it("C4: a frontmatter closing after line 30 gives no description", async () => {
    const dir = await tempDir("memdir-scan-");
    const filler = Array.from({ length: 30 }, (_, index) => `k${index}: v`).join("\n");
    await put(dir, "late.md", `---\ndescription: too late\n${filler}\n---\nBody\n`);
    const [late] = (await scanMemoryDir(dir)).memories;
    expect(late).toMatchObject({ description: null, frontmatter: "unclosed" });
  });

  it("C5: unicode names with spaces in nested folders keep their exact names", async () => {
    const dir = await tempDir("memdir-scan-");
    await put(dir, "Équipe notes/größe café 日本.md", memory("unicode"));
    const [only] = (await scanMemoryDir(dir)).memories;
    expect(only?.path).toBe("Équipe notes/größe café 日本.md");
  });

  it("C12: symlinks to a file and to a folder outside are reported as symlink-escape and not followed", async () => {
    const dir = await tempDir("memdir-scan-");
    const outside = await tempDir("memdir-outside-");
    await put(outside, "secret.md", memory("outside secret"));
    await put(dir, "real.md", memory("inside"));
    await symlink(path.join(outside, "secret.md"), path.join(dir, "linked.md"));
    await symlink(outside, path.join(dir, "linked-folder"));
    await symlink(path.join(dir, "real.md"), path.join(dir, "alias.md"));
    await symlink(path.join(dir, "missing.md"), path.join(dir, "broken.md"));
    const scan = await scanMemoryDir(dir);
    expect(scan.memories.map((memory) => memory.path)).toEqual(["real.md"]);
    expect(scan.skipped.map(({ path: file, reason }) => [file, reason])).toEqual([
      ["alias.md", "symlink"],
      ["broken.md", "unreadable"],
      ["linked-folder", "symlink-escape"],
      ["linked.md", "symlink-escape"],
    ]);
  });

  it.skipIf(process.getuid?.() === 0)("S3: an unreadable file is skipped with reason unreadable", async () => {
    const dir = await tempDir("memdir-scan-");
    await put(dir, "ok.md", memory("fine"));
    await put(dir, "locked.md", memory("locked"));
    await chmod(path.join(dir, "locked.md"), 0o000);
    const scan = await scanMemoryDir(dir);
    expect(scan.memories.map((memory) => memory.path)).toEqual(["ok.md"]);
    expect(scan.skipped).toEqual([{ path: "locked.md", reason: "unreadable", message: "permission denied" }]);
  });

  it("S3: a named pipe called x.md is listed as skipped with the reason, never opened (a scan used to wait on it forever)", async () => {
    const dir = await tempDir("memdir-scan-");
    await put(dir, "ok.md", memory("fine"));
    execFileSync("mkfifo", [path.join(dir, "x.md")]);
    const scan = await scanMemoryDir(dir);
    expect(scan.memories.map((memory) => memory.path)).toEqual(["ok.md"]);
    expect(scan.skipped).toEqual([{ path: "x.md", reason: "unreadable", message: "not a regular file (a named pipe)" }]);
  });

  it("S3: two links pointing at each other are reported as a link loop, not as a broken link", async () => {
    const dir = await tempDir("memdir-scan-");
    await symlink(path.join(dir, "loop2.md"), path.join(dir, "loop1.md"));
    await symlink(path.join(dir, "loop1.md"), path.join(dir, "loop2.md"));
    const scan = await scanMemoryDir(dir);
    expect(scan.skipped.map((skipped) => [skipped.path, skipped.message])).toEqual([
      ["loop1.md", "symbolic link loop"],
      ["loop2.md", "symbolic link loop"],
    ]);
  });

  it("P5: a missing directory scans as empty", async () => {
    const dir = await tempDir("memdir-scan-");
    expect(await scanMemoryDir(path.join(dir, "nope"))).toEqual({ memories: [], skipped: [], total: 0 });
  });
});
