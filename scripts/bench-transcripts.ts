/**
 * bench:transcripts — parses generated 50 MB and 200 MB Claude Code transcripts with
 * lib/transcripts (lines merged by message.id, tool results re-attached) beside a bare
 * read-lines + JSON.parse loop, in the same run. Each measurement runs in its own child process
 * so its peak RSS is its own; each is run `--repeat` times (default 3) and the fastest run counts,
 * because other work on the machine only ever adds time. Usage:
 * npm run bench:transcripts [-- --sizes 50,200] [--repeat 3]
 */
import { execFileSync } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2);
  if (mode === "--measure-baseline" || mode === "--measure-baseline-events" || mode === "--measure-reader") return measure(mode, file!);
  const sizesFlag = process.argv.indexOf("--sizes");
  const sizes = sizesFlag > 0 ? process.argv[sizesFlag + 1]!.split(",").map(Number) : [50, 200];
  const repeatFlag = process.argv.indexOf("--repeat");
  const repeat = repeatFlag > 0 ? Math.max(1, Number(process.argv[repeatFlag + 1])) : 3;
  const dir = await mkdtemp(path.join(os.tmpdir(), "teammem-bench-transcripts-"));
  try {
    console.log(`fastest of ${repeat} runs each`);
    console.log("size | bare loop: for await readline + JSON.parse | bare loop: readline 'line' events + JSON.parse | lib/transcripts | ratio to each | peak RSS (bare / events / reader)");
    for (const size of sizes) {
      const file = path.join(dir, `session-${size}.jsonl`);
      const messages = await generate(file, size * MB);
      const runs = Array.from({ length: repeat }, () => ["--measure-baseline", "--measure-baseline-events", "--measure-reader"].map((mode) => child(mode, file)));
      const column = (index: number) => fastest(runs.map((run) => run[index]!));
      const [baseline, events, reader] = [column(0), column(1), column(2)];
      console.log(`${size} MB (${messages} lines) | ${baseline.ms.toFixed(0)} ms | ${events.ms.toFixed(0)} ms | ${reader.ms.toFixed(0)} ms (${reader.count} messages) | ${(reader.ms / baseline.ms).toFixed(2)}× / ${(reader.ms / events.ms).toFixed(2)}× | ${baseline.peakMb.toFixed(0)} / ${events.peakMb.toFixed(0)} / ${reader.peakMb.toFixed(0)} MB`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The fastest run's time, the highest peak RSS of all runs. */
function fastest(runs: { ms: number; peakMb: number; count: number }[]): { ms: number; peakMb: number; count: number } {
  const best = runs.reduce((left, right) => (right.ms < left.ms ? right : left));
  return { ...best, peakMb: Math.max(...runs.map((run) => run.peakMb)) };
}

function child(mode: string, file: string): { ms: number; peakMb: number; count: number } {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), mode, file], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

async function measure(mode: string, file: string): Promise<void> {
  // Loaded before the clock starts: compiling the module is not parsing.
  const { readTranscript } = await import("../lib/transcripts/read-transcript");
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  let count = 0;
  if (mode === "--measure-baseline") {
    for await (const line of createInterface({ input: createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 }), crlfDelay: Infinity })) {
      if (line) JSON.parse(line);
      count++;
    }
  } else if (mode === "--measure-baseline-events") {
    const lines = createInterface({ input: createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 }), crlfDelay: Infinity });
    lines.on("line", (line) => {
      if (line) JSON.parse(line);
      count++;
    });
    await new Promise((resolve) => lines.once("close", resolve));
  } else {
    for await (const message of readTranscript(file).messages) if (message.uuid) count++;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(JSON.stringify({ ms, peakMb: peak / MB, count }) + "\n");
}

/** A realistic session: user turns, replies split per block, parallel tool calls and results, metadata. */
async function generate(file: string, bytes: number): Promise<number> {
  const out = createWriteStream(file);
  let written = 0;
  let lines = 0;
  let turn = 0;
  let parent: string | null = null;
  const write = (line: Record<string, unknown>) => {
    const text = JSON.stringify(line) + "\n";
    written += text.length;
    lines++;
    parent = (line.uuid as string | undefined) ?? parent;
    return out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", resolve));
  };
  const base = (type: string, uuid: string) => ({ type, uuid, parentUuid: parent, timestamp: new Date(Date.UTC(2026, 10, 30, 9) + lines * 1000).toISOString(), sessionId: "bench-session", cwd: "/repo", gitBranch: "main", version: "2.1.3", isSidechain: false });
  const filler = "The parser reads each line, merges the reply and re-attaches results. ".repeat(12);
  while (written < bytes) {
    turn++;
    await write({ ...base("user", `u${turn}`), message: { role: "user", content: `Turn ${turn}: please check module ${turn % 97}. ${filler.slice(0, 200)}` } });
    const id = `msg_${turn}`;
    await write({ ...base("assistant", `a${turn}-0`), message: { id, role: "assistant", content: [{ type: "text", text: filler }] } });
    const toolLines: string[] = [];
    for (const call of [0, 1]) {
      const uuid = `a${turn}-t${call}`;
      toolLines.push(uuid);
      await write({ ...base("assistant", uuid), message: { id, role: "assistant", content: [{ type: "tool_use", id: `toolu_${turn}_${call}`, name: "Read", input: { file_path: `/repo/src/module-${turn % 97}-${call}.ts` } }] } });
    }
    for (const call of [0, 1]) {
      await write({ ...base("user", `r${turn}-${call}`), parentUuid: toolLines[call], message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${turn}_${call}`, content: `export const value${call} = ${turn};\n${filler}${filler}` }] } });
    }
    if (turn % 50 === 0) await write({ type: "file-history-snapshot", messageId: id, snapshot: { trackedFileBackups: {} } });
  }
  await new Promise<void>((resolve) => out.end(resolve));
  return lines;
}

void main();
