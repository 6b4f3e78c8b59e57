import { chmod, mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UnsafeMemoryPathError, writeMemoryFile } from "@/lib/memdir/write-memory-file";

const tempDir = (prefix: string): Promise<string> => mkdtemp(path.join(os.tmpdir(), prefix));

describe("writeMemoryFile", () => {
  it("P5: creates the directory and nested folders, writes the content, leaves no temp file", async () => {
    const memoryDir = path.join(await tempDir("memdir-write-"), "memory");
    await writeMemoryFile({ memoryDir, relativePath: "team/a.md", content: "hello" });
    expect(await readFile(path.join(memoryDir, "team/a.md"), "utf8")).toBe("hello");
    expect(await readdir(path.join(memoryDir, "team"))).toEqual(["a.md"]);
  });

  it("replaces an existing file atomically (rename over it)", async () => {
    const memoryDir = await tempDir("memdir-write-");
    await writeFile(path.join(memoryDir, "a.md"), "old");
    await writeMemoryFile({ memoryDir, relativePath: "a.md", content: "new" });
    expect(await readFile(path.join(memoryDir, "a.md"), "utf8")).toBe("new");
  });

  it("a replaced file keeps its permissions (a private 0600 index stays private); a new one gets the usual mode", async () => {
    const memoryDir = await tempDir("memdir-write-");
    await writeFile(path.join(memoryDir, "MEMORY.md"), "old");
    await chmod(path.join(memoryDir, "MEMORY.md"), 0o600);
    await writeFile(path.join(memoryDir, "shared.md"), "old");
    await chmod(path.join(memoryDir, "shared.md"), 0o664);
    await writeMemoryFile({ memoryDir, relativePath: "MEMORY.md", content: "new" });
    await writeMemoryFile({ memoryDir, relativePath: "shared.md", content: "new" });
    await writeMemoryFile({ memoryDir, relativePath: "fresh.md", content: "new" });
    const modeOf = async (name: string) => (await stat(path.join(memoryDir, name))).mode & 0o777;
    expect(await modeOf("MEMORY.md")).toBe(0o600);
    expect(await modeOf("shared.md")).toBe(0o664);
    expect(await modeOf("fresh.md")).toBe(0o666 & ~process.umask());
  });

  it("C12: refuses to write through a symlinked file that leads outside", async () => {
    const memoryDir = await tempDir("memdir-write-");
    const outside = await tempDir("memdir-outside-");
    await writeFile(path.join(outside, "authorized_keys"), "original");
    await symlink(path.join(outside, "authorized_keys"), path.join(memoryDir, "a.md"));
    await expect(writeMemoryFile({ memoryDir, relativePath: "a.md", content: "pwned" })).rejects.toBeInstanceOf(UnsafeMemoryPathError);
    expect(await readFile(path.join(outside, "authorized_keys"), "utf8")).toBe("original");
  });

  it("C12: refuses a symlinked folder outside and creates nothing there", async () => {
    const memoryDir = await tempDir("memdir-write-");
    const outside = await tempDir("memdir-outside-");
    await symlink(outside, path.join(memoryDir, "team"));
    await expect(writeMemoryFile({ memoryDir, relativePath: "team/sub/a.md", content: "x" })).rejects.toThrow(/link out of the memory directory/);
    expect(await readdir(outside)).toEqual([]);
  });

  it("writes through a symlink whose target stays inside the memory directory", async () => {
    const memoryDir = await tempDir("memdir-write-");
    await mkdir(path.join(memoryDir, "real"));
    await writeFile(path.join(memoryDir, "real/a.md"), "old");
    await symlink(path.join(memoryDir, "real/a.md"), path.join(memoryDir, "a.md"));
    await writeMemoryFile({ memoryDir, relativePath: "a.md", content: "new" });
    expect(await readFile(path.join(memoryDir, "real/a.md"), "utf8")).toBe("new");
  });

  it("C12: unsafe names are refused before touching the disk", async () => {
    const memoryDir = await tempDir("memdir-write-");
    await expect(writeMemoryFile({ memoryDir, relativePath: "%2e%2e/x.md", content: "x" })).rejects.toThrow(/`\.` or `\.\.`/);
    expect(await readdir(memoryDir)).toEqual([]);
  });
});
