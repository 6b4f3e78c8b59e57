import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseMemoryHeader } from "@/lib/memdir/frontmatter";
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

describe("readHeadSync until the frontmatter ends", () => {
  it("C4: reads the same header as the full first 30 lines, for every kind of opening and closing line", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-head-fm-"));
    const openings = ["---\n", "---\r\n", "\uFEFF---\n", "--- \n", "---\t\n", "----\n", "# no frontmatter\n", ""];
    const closings = ["---\n", "---\r\n", "--- \n", "---\t\r\n", "---", "----\n", " ---\n", "...\n"];
    const middles = [
      "name: A\ndescription: plain words\ntype: project\n",
      "name: B\ndescription: billing: a colon\ntype: feedback\n",
      "name: C\n---x: not a delimiter\ntype: user\n",
      "name: D\ndescription: \"quoted: yes\"\r\ntype: reference\n",
      "",
      "name: E\n" + "note: filler\n".repeat(30),
    ];
    const bodies = ["", "body\n", "---\nname: not this one\n---\n", "x\n".repeat(40)];
    let checked = 0;
    for (const [o, opening] of openings.entries()) {
      for (const [c, closing] of closings.entries()) {
        for (const [m, middle] of middles.entries()) {
          for (const [b, body] of bodies.entries()) {
            const text = opening + middle + closing + body;
            const file = path.join(dir, `f-${o}-${c}-${m}-${b}.md`);
            await writeFile(file, text);
            const bounded = readHeadSync(file, 30, true);
            const full = readHeadSync(file, 30);
            expect(parseMemoryHeader(bounded.text), JSON.stringify(text)).toEqual(parseMemoryHeader(full.text));
            expect(full.text.startsWith(bounded.text)).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(openings.length * closings.length * middles.length * bodies.length);
  });

  it("stops after the closing line, so the body is never decoded", async () => {
    const file = await tempFile(`---\nname: A\n---\n${"body line\n".repeat(20)}`);
    expect(readHeadSync(file, 30, true).text).toBe("---\nname: A\n---\n");
    expect(readHeadSync(await tempFile("---\r\nname: A\r\n---\r\nbody\r\n"), 30, true).text).toBe("---\r\nname: A\r\n---\r\n");
  });
});
