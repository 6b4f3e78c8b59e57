import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_HEAD_BYTES, readHead, readHeadSync } from "@/lib/memdir/read-head";

async function tempFile(content: string | Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-head-"));
  const file = path.join(dir, "memory.md");
  await writeFile(file, content);
  return file;
}

describe("readHead", () => {
  it("S2: a 6 MB memory costs no more than its first 30 lines", async () => {
    const line = "x".repeat(99) + "\n";
    const file = await tempFile(`---\ndescription: big\n---\n${line.repeat(60_000)}`);
    const head = await readHead(file, 30);
    expect(head.size).toBeGreaterThan(6_000_000);
    expect(head.text.split("\n")).toHaveLength(30);
    expect(head.bytesRead).toBeLessThanOrEqual(8192);
  });

  it("S2: a file without newlines is read no further than the head cap", async () => {
    const file = await tempFile("y".repeat(1_000_000));
    const head = await readHead(file, 30);
    expect(head.bytesRead).toBe(MAX_HEAD_BYTES);
    expect(head.text).toHaveLength(MAX_HEAD_BYTES);
  });

  it("S2: returns the whole of a short file with its mtime", async () => {
    const file = await tempFile("a\nb\n");
    const head = await readHead(file, 30);
    expect(head.text).toBe("a\nb\n");
    expect(head.mtime).toBeInstanceOf(Date);
  });

  it("S3: an empty file reads as empty text", async () => {
    const head = await readHead(await tempFile(""), 30);
    expect([head.text, head.bytesRead]).toEqual(["", 0]);
  });
});

describe("readHeadSync against reading the whole file", () => {
  it("gives the first lines exactly, for line counts and lengths around 30 lines and the 4 KB reads", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-head-diff-"));
    let checked = 0;
    for (const lines of [1, 29, 30, 31, 60]) {
      for (const width of [0, 10, 137, 4095, 4096, 5000]) {
        for (const endsWithNewline of [true, false]) {
          const text = Array.from({ length: lines }, (_, index) => `${index}:`.padEnd(width, "é")).join("\n") + (endsWithNewline ? "\n" : "");
          const file = path.join(dir, `f-${lines}-${width}-${endsWithNewline}.md`);
          await writeFile(file, text);
          const firstLines = text.split("\n").slice(0, 30).join("\n");
          const head = readHeadSync(file, 30);
          if (Buffer.byteLength(firstLines) < MAX_HEAD_BYTES) expect(head.text, `${lines} lines of ${width}`).toBe(firstLines);
          else expect(head.bytesRead, `${lines} lines of ${width}: read up to the cap`).toBe(MAX_HEAD_BYTES);
          checked++;
        }
      }
    }
    expect(checked).toBe(60);
  });
});
