/**
 * Benchmark for issue 11 "Team scale", CLI start-up: each contender is a fresh process, timed
 * from spawn to exit, beside its floor in the same run, the contenders taking turns. Prints median and p95 and the ratios;
 * asserts nothing (timings vary by machine).
 * Run: npm run bench:cli [-- runs]   (default 31 runs per contender)
 *
 * - `teammem --version` through the installed command (node cli/teammem.mjs, what the `bin`
 *   link runs; not npx, which adds its own ~0.7 s) against `node -e 0`.
 * - `teammem recall DIR --query …` against `teammem scan DIR` on the same 30 memories with no
 *   model key: the difference is what recall adds to start-up (the local ranker, and any module
 *   it loads that the scan does not).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { findCompiledCli } from "../cli/find-compiled-cli.mjs";

const DEFAULT_RUNS = 31;
const cli = path.resolve("cli/teammem.mjs");
// No ANTHROPIC_* (and nothing else from the caller's environment): recall must take the local path.
const env = { NODE_ENV: "development", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir() } as const;

type Timing = { median: number; p95: number };

/**
 * Every contender once per round, round after round: on this machine a process's start-up drifts
 * by tens of milliseconds within a minute, and timing one contender's runs after another's put
 * that drift into the differences (recall − scan moved 12 → 26 ms between two runs).
 */
function timeInterleaved(contenders: readonly (readonly string[])[], runs: number): Timing[] {
  const times = contenders.map((): number[] => []);
  for (let round = 0; round <= runs; round++) {
    for (const [index, args] of contenders.entries()) {
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr.toString()}`);
      if (round > 0) times[index]!.push(elapsed); // the first round warms the page cache
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { median: list[Math.floor(list.length / 2)]!, p95: list[Math.min(list.length - 1, Math.ceil(list.length * 0.95) - 1)]! };
  });
}

async function writeMemories(dir: string, count: number): Promise<void> {
  for (let number = 0; number < count; number++) {
    const description = number % 3 === 0 ? `billing: invoice rule ${number} (see #${number})` : `invoice rule ${number} for the billing export`;
    await writeFile(path.join(dir, `memory_${number}.md`), `---\nname: Rule ${number}\ndescription: ${description}\ntype: project\n---\nRule ${number}: exports run nightly.\n`);
  }
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : DEFAULT_RUNS;
  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-cli-"));
  try {
    await writeMemories(dir, 30);
    const [floor, version, scan, recall] = timeInterleaved(
      [["-e", "0"], [cli, "--version"], [cli, "scan", dir], [cli, "recall", dir, "--query", "how do invoice exports run"]],
      runs,
    ) as [Timing, Timing, Timing, Timing];
    const rows = [
      ["node -e 0", floor, "1.00"],
      ["teammem --version", version, (version.median / floor.median).toFixed(2)],
      ["teammem scan DIR (30 memories)", scan, (scan.median / floor.median).toFixed(2)],
      ["teammem recall DIR --query …", recall, (recall.median / floor.median).toFixed(2)],
    ] as const;
    const compiled = findCompiledCli() ? "compiled (generated/cli)" : "tsx loader (no or stale build: npm run build:cli)";
    console.log(`${runs} runs each, node ${process.version}, ${os.cpus().length} CPUs, CLI: ${compiled}`);
    console.log(`${"command".padEnd(32)}${"median ms".padStart(10)}${"p95 ms".padStart(10)}${"× node -e 0".padStart(13)}`);
    for (const [name, timing, ratio] of rows) {
      console.log(`${name.padEnd(32)}${timing.median.toFixed(1).padStart(10)}${timing.p95.toFixed(1).padStart(10)}${ratio.padStart(13)}`);
    }
    console.log(`recall − scan (median): ${(recall.median - scan.median).toFixed(1)} ms`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
