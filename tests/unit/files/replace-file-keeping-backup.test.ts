import { chmod, lstat, readdir, readFile, realpath, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { replaceFileKeepingBackup } from "@/lib/files/replace-file-keeping-backup";
import { useTempDirs } from "../../helpers/temp-dir";

const tempDir = useTempDirs();

describe("replaceFileKeepingBackup", () => {
  it("rewrites the target of a symlink (the link stays a link) and keeps the old bytes owner-only", async () => {
    const dir = await tempDir();
    const target = path.join(dir, "real.md");
    const link = path.join(dir, "link.md");
    await writeFile(target, "old text\n");
    await chmod(target, 0o664);
    await symlink(target, link);

    const result = await replaceFileKeepingBackup(link, "new text\n", new Date("2026-11-30T12:34:56.789Z"));
    expect(result).toEqual({ file: target, backup: `${target}.bak-20261130T123456Z` });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(link, "utf8")).toBe("new text\n");
    expect((await stat(target)).mode & 0o777).toBe(0o664);
    expect(await readFile(result.backup, "utf8")).toBe("old text\n");
    expect((await stat(result.backup)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(["link.md", "real.md", "real.md.bak-20261130T123456Z"]);
  });

  it("never overwrites an earlier backup: a second change in the same second gets a backup of its own", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "memory.md");
    await writeFile(file, "first\n");
    const when = new Date("2026-11-30T12:00:00Z");
    await replaceFileKeepingBackup(file, "second\n", when);
    expect(await replaceFileKeepingBackup(file, "third\n", when)).toEqual({ file: await realpath(file), backup: `${await realpath(file)}.bak-20261130T120000Z-2` });
    expect(await readFile(`${file}.bak-20261130T120000Z`, "utf8")).toBe("first\n");
    expect(await readFile(`${file}.bak-20261130T120000Z-2`, "utf8")).toBe("second\n");
    expect(await readFile(file, "utf8")).toBe("third\n");
  });

  it("refuses a file its owner made read-only and leaves no backup behind", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "settings.json");
    await writeFile(file, "{}\n");
    await chmod(file, 0o444);
    await expect(replaceFileKeepingBackup(file, "{\"hooks\":{}}\n")).rejects.toMatchObject({ code: "EACCES" });
    expect(await readFile(file, "utf8")).toBe("{}\n");
    expect(await readdir(dir)).toEqual(["settings.json"]);
  });
});
