import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { createInterface } from "node:readline";
import path from "node:path";
import { Readable } from "node:stream";
import { emptyReadStats, parseJsonlObject } from "./read-jsonl-lines";
import { createMessageMerger, type MergeOptions } from "./merge-transcript-lines";
import type { ReadStats, TranscriptMessage } from "./transcript-types";

export type TranscriptReader = {
  messages: AsyncGenerator<TranscriptMessage>;
  /** Filled in as `messages` is consumed; final once it is done. */
  stats: ReadStats;
};

/** Streams one session file's messages (C13); see mergeTranscriptLines for what is merged. */
export function readTranscript(filePath: string, options: MergeOptions = {}): TranscriptReader {
  const stats = emptyReadStats();
  return { messages: streamMessages(createReadStream(filePath, { encoding: "utf8", highWaterMark: 256 * 1024 }), stats, options), stats };
}

// One async layer: lines are parsed and merged synchronously inside the read loop (each extra
// async generator between them cost about as much as JSON.parse itself, bench:transcripts).
async function* streamMessages(input: Readable, stats: ReadStats, options: MergeOptions): AsyncGenerator<TranscriptMessage> {
  const merger = createMessageMerger(stats, options);
  let hasPendingFailure = false;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (hasPendingFailure) stats.malformedLines++;
    hasPendingFailure = false;
    if (line.length === 0) continue;
    stats.lines++;
    const value = parseJsonlObject(line);
    if (!value) {
      hasPendingFailure = true;
      continue;
    }
    const completed = merger.push(value);
    if (completed.length === 1) yield completed[0]!;
    else if (completed.length > 1) yield* [...completed];
  }
  stats.isLastLinePartial = hasPendingFailure;
  yield* [...merger.end()];
}

/** The same for JSONL text already in memory (a request body, bounded by its size limit). */
export function readTranscriptText(text: string, options: MergeOptions = {}): TranscriptReader {
  const stats = emptyReadStats();
  return { messages: streamMessages(Readable.from([text]), stats, options), stats };
}

/** C13: a session's sub-agents write `<session-uuid>/subagents/agent-<id>.jsonl` beside it. */
export async function findSubagentTranscripts(sessionFile: string): Promise<string[]> {
  const folder = path.join(path.dirname(sessionFile), path.basename(sessionFile, ".jsonl"), "subagents");
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => /^agent-.+\.jsonl$/.test(name)).sort().map((name) => path.join(folder, name));
}
