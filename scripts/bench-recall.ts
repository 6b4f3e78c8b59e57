/**
 * Benchmark for issue 7 "Speed": the local recall path over 200 and 2,000 memories beside the bare
 * scan in the same run. Prints median and p95; asserts nothing (timings vary by machine).
 * Run: npx tsx scripts/bench-recall.ts [sizes...]   (default 200 2000)
 *
 * Steps: scan = scanMemoryDir(all), what recall starts with; manifest = S5 lines with secret
 * masking for the newest 200; rank cold = rankMemoriesLocally when its index must be built (the
 * first prompt after a memory changed), rank warm = the same with the index cached (every other
 * prompt), both over the newest 200 as recall runs it and over every memory to show how it grows;
 * recall = the whole recallMemories call without a model (scan + manifest + rank + injections).
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { formatManifestLine } from "../lib/memdir/format-manifest";
import { MAX_MEMORY_FILES, scanMemoryDir } from "../lib/memdir/scan-memory-dir";
import { maskSecrets } from "../lib/recall/mask-secrets";
import { rankMemoriesLocally } from "../lib/recall/rank-memories-locally";
import { recallMemories } from "../lib/recall/recall-memories";
import { HELD_OUT_QUERIES, LABELLED_QUERIES, LEDGERLINE_MEMORIES } from "../tests/fixtures/recall/ledgerline-memories";

const SCAN_RUNS = 15;
const QUERY_RUNS = 300;
const QUERIES = [...LABELLED_QUERIES, ...HELD_OUT_QUERIES];
// Words mixed into generated descriptions so a big directory has a realistic, growing vocabulary.
const VOCABULARY = (
  "tenant invoice refund ledger export report quota webhook retry cache index replica shard cron backfill audit " +
  "currency pricing coupon trial seat plan upgrade downgrade proration receipt statement reconciliation payout " +
  "dispute chargeback fraud limit alert dashboard metric latency timeout deadlock vacuum partition archive"
).split(" ");

/** Deterministic: the same directory on every run and machine. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function generate(dir: string, count: number): Promise<void> {
  const random = createRandom(count);
  const now = Date.now();
  for (let start = 0; start < count; start += 250) {
    const batch = Array.from({ length: Math.min(250, count - start) }, (_, offset) => start + offset);
    await Promise.all(
      batch.map(async (number) => {
        const template = LEDGERLINE_MEMORIES[number % LEDGERLINE_MEMORIES.length]!;
        const extra = Array.from({ length: 4 }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(" ");
        const file = template.file.replace(/\.md$/, `_${number}.md`);
        const fullPath = path.join(dir, file);
        await mkdir(path.dirname(fullPath), { recursive: true });
        await writeFile(fullPath, `---\nname: ${template.name} ${number}\ndescription: "${template.description} (${extra})"\ntype: ${template.type}\n---\n${template.body}`);
        const mtime = new Date(now - Math.floor(random() * 400) * 86_400_000);
        await utimes(fullPath, mtime, mtime);
      }),
    );
  }
}

type Stats = { median: number; p95: number };

function stats(times: number[]): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95) };
}

async function time(runs: number, task: (run: number) => unknown): Promise<Stats> {
  for (let run = 0; run < 20; run++) await task(run); // warm the JIT and the page cache alike for everyone
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    await task(run);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return stats(times);
}

async function measure(count: number): Promise<string[][]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-recall-"));
  try {
    await generate(dir, count);
    const all = (await scanMemoryDir(dir, { all: true })).memories;
    const newest = all.slice(0, MAX_MEMORY_FILES);
    const query = (run: number) => QUERIES[run % QUERIES.length]!;
    const scan = await time(SCAN_RUNS, () => scanMemoryDir(dir, { all: true }));
    const manifest = await time(QUERY_RUNS, () => newest.map((memory) => formatManifestLine({ ...memory, description: memory.description && maskSecrets(memory.description) })).join("\n"));
    // A changed description per run defeats the index cache: every run pays the build.
    const changed = (memories: typeof all, run: number) => memories.map((memory, index) => (index === 0 ? { ...memory, description: `${memory.description} ${run}` } : memory));
    const rankCold = await time(QUERY_RUNS, (run) => rankMemoriesLocally(changed(newest, run), query(run).query, query(run).recentTools));
    const rankWarm = await time(QUERY_RUNS, (run) => rankMemoriesLocally(newest, query(run).query, query(run).recentTools));
    const rankAllCold = await time(Math.min(QUERY_RUNS, 60), (run) => rankMemoriesLocally(changed(all, run), query(run).query, query(run).recentTools));
    const rankAllWarm = await time(QUERY_RUNS, (run) => rankMemoriesLocally(all, query(run).query, query(run).recentTools));
    const recall = await time(SCAN_RUNS * 4, (run) => recallMemories({ memoryDir: dir, query: query(run).query, recentTools: query(run).recentTools }));
    const row = (label: string, result: Stats): string[] => [
      String(count),
      label,
      result.median.toFixed(2),
      result.p95.toFixed(2),
      (result.median / scan.median).toFixed(2),
    ];
    return [
      row("scan (all headers)", scan),
      row("manifest, newest 200", manifest),
      row("rank cold, newest 200", rankCold),
      row("rank warm, newest 200", rankWarm),
      row(`rank cold, all ${count}`, rankAllCold),
      row(`rank warm, all ${count}`, rankAllWarm),
      row("recall end to end", recall),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((size) => size > 0);
  const rows: string[][] = [];
  for (const count of sizes.length > 0 ? sizes : [200, 2_000]) rows.push(...(await measure(count)));
  const header = ["memories", "step", "median ms", "p95 ms", "median / scan"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]): string => row.map((cell, column) => (column === 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  console.log(`${QUERIES.length} labelled queries cycled; scan ${SCAN_RUNS} runs, rank ${QUERY_RUNS} runs, recall ${SCAN_RUNS * 4} runs; node ${process.version}, ${os.cpus().length} CPUs`);
  console.log(format(header));
  for (const row of rows) console.log(format(row));
}

await main();
