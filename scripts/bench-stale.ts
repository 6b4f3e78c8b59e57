/**
 * Benchmark for issue 13: the staleness check of 2,000 memories citing about 5,000 paths and
 * symbols against a 50,000-file code repository, beside the floors measured in the same run: one
 * `git ls-tree -r HEAD` plus one `git grep -F -w -o` of the same symbols (the issue's floor,
 * measured once: it is slow), and the same with the single PCRE alternation the check uses. Cold: every citation
 * checked (what a new code commit costs). Warm: the (blob, code commit) cache read from a real
 * SQLite database plus the per-memory assessment (what every later refresh costs). Prints
 * medians and ratios; asserts nothing. Run: npm run bench:stale [-- memories files]
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config";
import { createDb } from "../lib/db/client";
import { runSetup } from "../lib/setup/run-setup";
import { assessFreshness } from "../lib/stale/assess-freshness";
import { forgetCodeTrees } from "../lib/stale/check-code-citations";
import { checkMemoryTexts } from "../lib/stale/check-memory-texts";
import { loadCachedResults } from "../lib/stale/load-cached-results";

const RUNS = 3;
const [memoryCount = 2_000, fileCount = 50_000] = process.argv.slice(2).map(Number);

function buildRepo(dir: string): string {
  execFileSync("git", ["init", "-q", "--bare", "--initial-branch=main", dir]);
  // fast-import: 50,000 files in one stream instead of 50,000 writes and an `add`.
  const lines: string[] = ["commit refs/heads/main", "committer Bench <bench@example.com> 1760000000 +0000", "data 5", "first"];
  for (let index = 0; index < fileCount; index += 1) {
    const content = `package mod${index % 500}\n\nfunc Symbol${index}() int { return ${index} }\n// helper_${index % 97} calls Symbol${(index * 7) % fileCount}\n`;
    lines.push(`M 100644 inline src/mod${index % 500}/file${index}.go`, `data ${Buffer.byteLength(content)}`, content);
  }
  lines.push("commit refs/heads/main", "committer Bench <bench@example.com> 1760086400 +0000", "data 6", "moves");
  for (let index = 0; index < 500; index += 1) lines.push(`R src/mod${index % 500}/file${index}.go src/moved/file${index}.go`);
  execFileSync("git", ["--git-dir", dir, "fast-import", "--quiet"], { input: lines.join("\n") + "\n", maxBuffer: 1 << 30 });
  return execFileSync("git", ["--git-dir", dir, "rev-parse", "main"], { encoding: "utf8" }).trim();
}

/** Memory i cites a present file, every fifth a moved or missing one, and one or two symbols. */
function memoryText(index: number): { text: string; symbols: string[] } {
  const present = (index * 13) % fileCount;
  const symbols = [`Symbol${(index * 31) % fileCount}`, ...(index % 2 === 0 ? [`Gone${index}`] : [])];
  const cited = [`src/mod${present % 500}/file${present}.go`, ...(index % 5 === 0 ? [`src/mod${index % 500}/file${index % 500}.go`, `src/missing/file${index}.go`] : [])];
  const body = `The importer lives in ${cited.join(" and ")}; call ${symbols.map((symbol) => `\`${symbol}()\``).join(" then ")} first.`;
  return { text: `---\nname: Memory ${index}\ndescription: How importer ${index} works\ntype: reference\n---\n${body}\n`, symbols };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), "teammem-bench-stale-"));
  try {
    const repo = path.join(root, "code.git");
    const commit = buildRepo(repo);
    const memories = Array.from({ length: memoryCount }, (_, index) => ({ key: `blob${index}`, ...memoryText(index), writtenAt: new Date() }));
    const allSymbols = [...new Set(memories.flatMap((memory) => memory.symbols))];
    const citations = memories.reduce((sum, memory) => sum + memory.symbols.length, 0) + memories.reduce((sum, _, index) => sum + (index % 5 === 0 ? 3 : 1), 0);
    const patternFile = path.join(root, "terms");
    await writeFile(patternFile, allSymbols.join("\n") + "\n");
    console.log(`${memoryCount} memories citing ${citations} paths and symbols; ${fileCount} files in the code repository.`);

    const alternationFile = path.join(root, "alternation");
    // As the check writes it: one alternation per 400 terms (PCRE's pattern size limit).
    const alternations = Array.from({ length: Math.ceil(allSymbols.length / 400) }, (_, index) => `(?<![A-Za-z0-9_])(?:${allSymbols.slice(index * 400, index * 400 + 400).join("|")})(?![A-Za-z0-9_])`);
    await writeFile(alternationFile, alternations.join("\n") + "\n");
    const floorWith = (grepArgs: string[]) => async () => {
      execFileSync("git", ["--git-dir", repo, "ls-tree", "-r", commit], { maxBuffer: 1 << 30 });
      try {
        execFileSync("git", ["--git-dir", repo, "grep", "-I", ...grepArgs, commit], { maxBuffer: 1 << 30 });
      } catch {
        // exit 1: no match
      }
    };
    const fixedFloor = floorWith(["-F", "-w", "-o", "-f", patternFile]);
    const floor = floorWith(["-P", "-o", "-f", alternationFile]);
    const cold = () => {
      forgetCodeTrees();
      return checkMemoryTexts({ memories, code: { dir: repo, commit } });
    };

    const dataDir = path.join(root, "data");
    await mkdir(dataDir, { recursive: true });
    const config = loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "off", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
    await runSetup(config);
    const db = createDb(config);
    const results = await cold();
    await db.staleCheck.createMany({ data: [...results].map(([blob, result]) => ({ blob, codeCommit: commit, result: JSON.stringify(result) })) });
    const now = new Date();
    const warm = async () => {
      const cached = await loadCachedResults(db, memories.map((memory) => memory.key), commit);
      for (const memory of memories) assessFreshness({ type: "reference", lastCommitAt: memory.writtenAt, now, check: cached.get(memory.key)!, codeProblem: null, wasRecalled: true, duplicateOf: null });
    };

    const floors: number[] = [];
    const colds: number[] = [];
    const warms: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      floors.push(await time(floor));
      colds.push(await time(cold));
      warms.push(await time(warm));
    }
    const fixedFloorMs = await time(fixedFloor);
    const stale = [...results.values()].filter((result) => (result.code?.signals.length ?? 0) > 0).length;
    console.log(`memories with a code signal: ${stale}`);
    console.log(`floor (ls-tree -r + grep -F -w -o):  ${fixedFloorMs.toFixed(0)} ms  (once)`);
    console.log(`floor (ls-tree -r + grep -P -o):     ${median(floors).toFixed(0)} ms`);
    console.log(`cold check:                          ${median(colds).toFixed(0)} ms  (${(median(colds) / median(floors)).toFixed(2)}× the -P floor, ${(median(colds) / fixedFloorMs).toFixed(2)}× the -F floor)`);
    console.log(`warm (cache read + assessment):      ${median(warms).toFixed(0)} ms  (${(median(warms) / median(floors)).toFixed(3)}× the -P floor)`);
    await db.$disconnect();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
