import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
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

// Lines are split with indexOf on each decoded chunk and parsed and merged synchronously; the
// generator wakes once per chunk (256 KB), not per line. readline (its line regex and one event
// per line) and awaiting each line cost more than the JSON.parse itself (bench:transcripts).
// A consumer that stops pulling stops the reading: the next chunk is read only when asked for.
async function* streamMessages(input: Readable, stats: ReadStats, options: MergeOptions): AsyncGenerator<TranscriptMessage> {
  const merger = createMessageMerger(stats, options);
  const ready: TranscriptMessage[] = [];
  let hasPendingFailure = false;
  const takeLine = (raw: string) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (hasPendingFailure) stats.malformedLines++;
    hasPendingFailure = false;
    if (line.length === 0) return;
    stats.lines++;
    const value = parseJsonlObject(line);
    if (!value) {
      hasPendingFailure = true;
      return;
    }
    for (const message of merger.push(value)) ready.push(message);
  };
  // The start of a line longer than a chunk, kept in parts so a long line is joined once.
  let partial: string[] = [];
  try {
    for await (const chunk of input) {
      const text = String(chunk);
      let start = 0;
      let end = text.indexOf("\n");
      if (end !== -1 && partial.length > 0) {
        takeLine(partial.join("") + text.slice(0, end));
        partial = [];
        start = end + 1;
        end = text.indexOf("\n", start);
      }
      while (end !== -1) {
        takeLine(text.slice(start, end));
        start = end + 1;
        end = text.indexOf("\n", start);
      }
      if (start < text.length) partial.push(start === 0 ? text : text.slice(start));
      if (ready.length > 0) yield* ready.splice(0);
    }
    if (partial.length > 0) takeLine(partial.join(""));
    stats.isLastLinePartial = hasPendingFailure;
    yield* ready.splice(0);
    yield* merger.end();
  } finally {
    input.destroy();
  }
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
