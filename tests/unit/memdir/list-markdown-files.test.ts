import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isMemoryFileName, listMarkdownFiles } from "@/lib/memdir/list-markdown-files";

describe("listMarkdownFiles", () => {
  it("C5: MEMORY.md is excluded at every depth, other .md files are not", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-list-"));
    await mkdir(path.join(dir, "a/b"), { recursive: true });
    for (const file of ["MEMORY.md", "a/MEMORY.md", "a/b/deep.md", "a/memory.md", "x.markdown"]) await writeFile(path.join(dir, file), "");
    const listing = await listMarkdownFiles(dir);
    expect(listing.files.sort()).toEqual(["a/b/deep.md", "a/memory.md"]);
    expect([isMemoryFileName("MEMORY.md"), isMemoryFileName("notes.md")]).toEqual([false, true]);
  });

  it("C12: a symlink to a non-memory file outside is ignored, not reported", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-list-"));
    const outside = await mkdtemp(path.join(os.tmpdir(), "memdir-outside-"));
    await writeFile(path.join(outside, "notes.txt"), "x");
    await symlink(path.join(outside, "notes.txt"), path.join(dir, "notes.txt"));
    expect(await listMarkdownFiles(dir)).toEqual({ files: [], skipped: [] });
  });
});
