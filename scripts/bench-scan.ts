/**
 * Benchmark for issues 3 and 11: scanMemoryDir, and the whole `teammem scan DIR --all --json`
 * command, over N memory files beside the raw cost of reading their first 30 lines in the same
 * run. A third of the descriptions hold `: ` or `#` (as real notes do: "billing: …"), which is
 * the frontmatter path that used to throw and parse twice. Prints medians; asserts nothing
 * (timings vary by machine). Run: npm run bench:scan [-- sizes...]   (default 2500 5000 10000)
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createRequire } from "node:module";
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
        const description = number % 3 === 0 ? `billing: what memory ${number} is about (#${number})` : `What memory ${number} is specifically about`;
        const body = `Rule number ${number}.\n**Why:** an incident in sprint ${number % 40}.\n**How to apply:** whenever the importer runs.\n`;
        await mkdir(path.join(dir, folder), { recursive: true });
        await writeFile(path.join(dir, relativePath), `---\nname: Memory ${number}\ndescription: ${description}\ntype: ${TYPES[number % 4]}\n---\n${body.repeat(1 + (number % 12))}`);
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

/**
 * Baseline 2: a bare Node read loop, the least a Node program does to get what the scan needs:
 * list the `*.md` files (a readdir per folder), then per file open, fstat (for the mtime),
 * read 4 KiB chunks until 30 lines are in, decode, close. Nothing parsed, sorted or kept.
 * The same source runs in this process (warm) and as its own process (as a user runs it).
 */
const NODE_LOOP_SOURCE = `
const { closeSync, fstatSync, openSync, readSync, readdirSync } = require("node:fs");
const path = require("node:path");
// readdirSync's own \`recursive\` option stats every entry: 5x slower, a flattering baseline.
function listMarkdown(dir, relative, files) {
  for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
    const name = relative ? relative + "/" + entry.name : entry.name;
    if (entry.isDirectory()) listMarkdown(dir, name, files);
    else if (entry.name.endsWith(".md") && entry.name !== "MEMORY.md") files.push(name);
  }
  return files;
}
function nodeLoop(dir, maxLines) {
  const files = listMarkdown(dir, "", []);
  const buffer = Buffer.allocUnsafe(4096);
  for (const name of files) {
    const fd = openSync(path.join(dir, name), "r");
    const size = fstatSync(fd).size;
    let bytesRead = 0;
    let newlines = 0;
    while (newlines < maxLines && bytesRead < size) {
      const count = readSync(fd, buffer, 0, buffer.length, bytesRead);
      if (count === 0) break;
      for (let index = buffer.indexOf(0x0a); index !== -1 && index < count; index = buffer.indexOf(0x0a, index + 1)) newlines++;
      bytesRead += count;
    }
    buffer.toString("utf8", 0, Math.min(bytesRead, buffer.length));
    closeSync(fd);
  }
  return files.length;
}
`;
const nodeLoop = new Function("require", `${NODE_LOOP_SOURCE}; return nodeLoop;`)(createRequire(import.meta.url)) as (dir: string, maxLines: number) => number;
const nodeLoopScript = path.join(os.tmpdir(), `bench-scan-loop-${process.pid}.cjs`);

function nodeBaseline(dir: string): Promise<void> {
  nodeLoop(dir, FRONTMATTER_MAX_LINES);
  return Promise.resolve();
}

async function nodeProcessBaseline(dir: string): Promise<void> {
  await run(process.execPath, [nodeLoopScript, dir]);
}

async function nodeStartup(): Promise<void> {
  await run(process.execPath, ["-e", "0"]);
}

const cli = path.resolve("cli/teammem.mjs");

/** The command a user runs, start-up and output included (stdout to /dev/null). */
async function cliScan(dir: string): Promise<void> {
  await run("sh", ["-c", `"${process.execPath}" "${cli}" scan "${dir}" --all --json > /dev/null`], { env: { NODE_ENV: "development", PATH: process.env.PATH ?? "" } });
}

async function cliStartup(): Promise<void> {
  await run(process.execPath, [cli, "--version"], { env: { NODE_ENV: "development", PATH: process.env.PATH ?? "" } });
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
  await writeFile(nodeLoopScript, `${NODE_LOOP_SOURCE}\nnodeLoop(process.argv[2], ${FRONTMATTER_MAX_LINES});\n`);
  for (const count of sizes.length ? sizes : [2_500, 5_000, 10_000]) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "bench-scan-"));
    try {
      const files = await generate(dir, count);
      const head = await median(() => headBaseline(files));
      const node = await median(() => nodeBaseline(dir));
      if (nodeLoop(dir, FRONTMATTER_MAX_LINES) !== count) throw new Error("the node loop did not find every file");
      const nodeProcess = await median(() => nodeProcessBaseline(dir));
      const nodeStart = await median(() => nodeStartup());
      const scan = await median(() => scanMemoryDir(dir, { all: true }));
      const command = await median(() => cliScan(dir));
      const startup = await median(() => cliStartup());
      const result = await scanMemoryDir(dir, { all: true });
      if (result.total !== count) throw new Error(`scan found ${result.total} of ${count} files`);
      const commandWork = command - startup;
      const nodeProcessWork = nodeProcess - nodeStart;
      rows.push([
        String(count),
        head.toFixed(1),
        node.toFixed(1),
        scan.toFixed(1),
        (scan / head).toFixed(2),
        (scan / node).toFixed(2),
        ((node * 1000) / count).toFixed(1),
        ((scan * 1000) / count).toFixed(1),
        command.toFixed(1),
        ((nodeProcessWork * 1000) / count).toFixed(1),
        ((commandWork * 1000) / count).toFixed(1),
        (commandWork / nodeProcessWork).toFixed(2),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const header = [
    "files",
    "head -q -n 30 (ms)",
    "node read loop (ms)",
    "scanMemoryDir (ms)",
    "scan/head",
    "scan/node",
    "node µs/file",
    "scan µs/file",
    "teammem scan --all (ms)",
    "node process µs/file",
    "cli µs/file",
    "cli/node process",
  ];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]): string => row.map((cell, column) => cell.padStart(widths[column]!)).join("  ");
  console.log(`median of ${RUNS} warm runs, node ${process.version}, ${os.cpus().length} CPUs`);
  console.log("node loop: a readdir per folder, then open+fstat+read 30 lines+close per file; nothing parsed or kept");
  console.log("node process µs/file: (node LOOP.cjs DIR) minus (node -e 0), per file");
  console.log("cli µs/file: (teammem scan DIR --all --json) minus (teammem --version), per file");
  console.log(format(header));
  for (const row of rows) console.log(format(row));
  await rm(nodeLoopScript, { force: true });
}

await main();
