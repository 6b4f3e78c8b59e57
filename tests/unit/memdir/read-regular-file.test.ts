import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readHeadSync } from "@/lib/memdir/read-head";
import { NotRegularFileError, readRegularFile } from "@/lib/memdir/read-regular-file";

const tempDir = (): Promise<string> => mkdtemp(path.join(os.tmpdir(), "memdir-regular-"));

describe("readRegularFile", () => {
  it("reads a regular file, at most the bytes asked for", async () => {
    const file = path.join(await tempDir(), "a.md");
    await writeFile(file, "0123456789");
    expect((await readRegularFile(file)).bytes.toString()).toBe("0123456789");
    expect((await readRegularFile(file, 4)).bytes.toString()).toBe("0123");
  });

  it("a named pipe is refused at once, never waited on", async () => {
    const fifo = path.join(await tempDir(), "MEMORY.md");
    execFileSync("mkfifo", [fifo]);
    await expect(readRegularFile(fifo)).rejects.toThrow("not a regular file (a named pipe)");
    expect(() => readHeadSync(fifo, 30)).toThrow("not a regular file (a named pipe)");
  });

  it("a symbolic link is not followed, and a folder is not a file", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "target.md"), "secret");
    await symlink(path.join(dir, "target.md"), path.join(dir, "link.md"));
    await mkdir(path.join(dir, "folder.md"));
    const refused = await readRegularFile(path.join(dir, "link.md")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotRegularFileError);
    expect(refused).toMatchObject({ isSymbolicLink: true, message: "not a regular file (a symbolic link, not followed)" });
    expect(() => readHeadSync(path.join(dir, "link.md"), 30)).toThrow("not a regular file (a symbolic link, not followed)");
    await expect(readRegularFile(path.join(dir, "folder.md"))).rejects.toThrow("not a regular file (a folder)");
  });
});
