import { execFileSync } from "node:child_process";
import { lstat, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repairIndex } from "@/lib/memdir/repair-index";

async function memoryDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-repair-"));
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(dir, file), content);
  return dir;
}

describe("repairIndex", () => {
  it("I4: drops dangling lines, appends orphans, keeps every other byte", async () => {
    const index = "# My index\n<!-- keep me -->\n- [A](a.md) — custom hook, *styled*\n- [Gone](gone.md)\n\n- [C](c.md)\n";
    const dir = await memoryDir({
      "MEMORY.md": index,
      "a.md": "---\ndescription: a\n---\n",
      "c.md": "---\ndescription: c\n---\n",
      "new_one.md": "---\nname: New one\ndescription: what it is\ntype: user\n---\n",
    });
    const repair = await repairIndex(dir);
    const expected = "# My index\n<!-- keep me -->\n- [A](a.md) — custom hook, *styled*\n\n- [C](c.md)\n- [New one](new_one.md) — what it is\n";
    expect(repair).toMatchObject({ added: ["new_one.md"], removed: ["gone.md"], isChanged: true, after: expected });
    expect(await readFile(path.join(dir, "MEMORY.md"), "utf8")).toBe(expected);
    expect((await readdir(dir)).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it("I4: a MEMORY.md that is a named pipe or a link is refused, not replaced by the orphan lines alone", async () => {
    const piped = await memoryDir({ "a.md": "---\ndescription: a\n---\n" });
    execFileSync("mkfifo", [path.join(piped, "MEMORY.md")]);
    await expect(repairIndex(piped)).rejects.toThrow('Refusing to write "MEMORY.md": not a regular file (a named pipe).');
    expect((await lstat(path.join(piped, "MEMORY.md"))).isFIFO()).toBe(true);

    const linked = await memoryDir({ "a.md": "---\ndescription: a\n---\n", "real-index.md": "- [A](a.md)\n- [Notes](notes.md)\n" });
    await symlink(path.join(linked, "real-index.md"), path.join(linked, "MEMORY.md"));
    await expect(repairIndex(linked)).rejects.toThrow(/symbolic link, not followed/);
    expect(await readFile(path.join(linked, "real-index.md"), "utf8")).toBe("- [A](a.md)\n- [Notes](notes.md)\n");
  });

  it("I4: a healthy index is left untouched", async () => {
    const dir = await memoryDir({ "MEMORY.md": "- [A](a.md)", "a.md": "x" });
    expect((await repairIndex(dir)).isChanged).toBe(false);
    expect(await readFile(path.join(dir, "MEMORY.md"), "utf8")).toBe("- [A](a.md)");
  });

  it("I4: CRLF indexes get CRLF lines and a title from the file name when there is no name", async () => {
    const dir = await memoryDir({ "MEMORY.md": "- [A](a.md)\r\n- [B](b.md)", "a.md": "x", "feedback_tests-db.md": "no frontmatter" });
    const repair = await repairIndex(dir);
    expect(repair.after).toBe("- [A](a.md)\r\n- [feedback tests db](feedback_tests-db.md)\r\n");
  });
});
