import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isMemoryFileName, listMarkdownFiles } from "@/lib/memdir/list-markdown-files";

/** `caf\xe9.md`: a Latin-1 name, as old tools or an unzip leave them; never valid UTF-8. */
const LATIN1_NAME = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6d, 0x64]);

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

  it("S3: a file or folder whose name is not UTF-8 is skipped for that reason, not as one that disappeared", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-list-"));
    await writeFile(Buffer.concat([Buffer.from(`${dir}/`), LATIN1_NAME]), "---\ndescription: cafe booking API\n---\n");
    const folder = Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x6e, 0xf6, 0x74, 0x65, 0x73])]); // `n\xf6tes`
    await mkdir(folder);
    await writeFile(Buffer.concat([folder, Buffer.from("/inside.md")]), "x");
    await writeFile(path.join(dir, "caf\uFFFD-real.md"), "x"); // U+FFFD itself is valid UTF-8
    await writeFile(path.join(dir, "good.md"), "x");
    const listing = await listMarkdownFiles(dir);
    expect(listing.files.sort()).toEqual(["caf\uFFFD-real.md", "good.md"]);
    expect(listing.skipped.map((skipped) => [skipped.path, skipped.reason])).toEqual([
      ["caf\uFFFD.md", "unreadable"],
      ["n\uFFFDtes", "unreadable"],
    ]);
    for (const skipped of listing.skipped) {
      expect(skipped.message).toMatch(/^name is not valid UTF-8\b/);
      expect(skipped.message).toContain("rename it");
    }
  });
});
