/**
 * Benchmark for issue 3 "Speed": scanMemoryDir over N memory files beside the raw cost of
 * reading their first 30 lines in the same run. Prints medians; asserts nothing (timings vary
 * by machine). Run: npx tsx scripts/bench-scan.ts [sizes...]   (default 2500 5000 10000)
 */
import { execFile } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { FRONTMATTER_MAX_LINES } from "../lib/memdir/frontmatter";
import { scanMemoryDir } from "../lib/memdir/scan-memory-dir";

const RUNS = 5;
const TYPES = ["user", "feedback", "project", "reference"];
const run = promisify(execFile);

async function generate(dir: string, count: number): Promise<string[]> {
  const files: string[] = [];
  for (let index = 0; index < count; index += 500) {
    const batch = Array.from({ length: Math.min(500, count - index) }, (_, offset) => index + offset);
    await Promise.all(
      batch.map(async (number) => {
        const folder = number % 10 === 0 ? "team" : number % 7 === 0 ? `topic-${number % 5}` : "";
        const relativePath = path.join(folder, `memory_${number}.md`);
        const body = `Rule number ${number}.\n**Why:** an incident in sprint ${number % 40}.\n**How to apply:** whenever the importer runs.\n`;
        await mkdir(path.join(dir, folder), { recursive: true });
        await writeFile(path.join(dir, relativePath), `---\nname: Memory ${number}\ndescription: What memory ${number} is specifically about\ntype: ${TYPES[number % 4]}\n---\n${body.repeat(1 + (number % 12))}`);
        files.push(path.join(dir, relativePath));
      }),
    );
  }
  return files;
}

/** Baseline 1: `head -q -n 30` over the same files, in xargs batches (as the issue suggests). */
async function headBaseline(files: string[]): Promise<void> {
  const listFile = path.join(os.tmpdir(), `bench-list-${process.pid}`);
  await writeFile(listFile, files.join("\0"));
  await run("sh", ["-c", `xargs -0 -n 2000 head -q -n ${FRONTMATTER_MAX_LINES} < "${listFile}" > /dev/null`], { maxBuffer: 1 << 26 });
  await rm(listFile);
}

/** Baseline 2: the least a Node program can do per file: open, fstat (for the mtime), one 4 KiB read, close. */
function nodeBaseline(files: string[]): Promise<void> {
  const buffer = Buffer.allocUnsafe(4096);
  for (const file of files) {
    const fd = openSync(file, "r");
    fstatSync(fd);
    readSync(fd, buffer, 0, buffer.length, 0);
    closeSync(fd);
  }
  return Promise.resolve();
}

async function median(task: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  await task(); // warm the page cache and the JIT; every contender gets the same warm-up
  for (let index = 0; index < RUNS; index++) {
    const start = process.hrtime.bigint();
    await task();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((size) => size > 0);
  const rows: string[][] = [];
  for (const count of sizes.length ? sizes : [2_500, 5_000, 10_000]) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "bench-scan-"));
    try {
      const files = await generate(dir, count);
      const head = await median(() => headBaseline(files));
      const node = await median(() => nodeBaseline(files));
      const scan = await median(() => scanMemoryDir(dir, { all: true }));
      const result = await scanMemoryDir(dir, { all: true });
      if (result.total !== count) throw new Error(`scan found ${result.total} of ${count} files`);
      rows.push([String(count), head.toFixed(1), node.toFixed(1), scan.toFixed(1), (scan / head).toFixed(2), (scan / node).toFixed(2), ((scan * 1000) / count).toFixed(1)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const header = ["files", "head -q -n 30 (ms)", "node fstat+read (ms)", "scanMemoryDir (ms)", "scan/head", "scan/node", "scan µs/file"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]): string => row.map((cell, column) => cell.padStart(widths[column]!)).join("  ");
  console.log(`median of ${RUNS} warm runs, node ${process.version}, ${os.cpus().length} CPUs`);
  console.log(format(header));
  for (const row of rows) console.log(format(row));
}

await main();
