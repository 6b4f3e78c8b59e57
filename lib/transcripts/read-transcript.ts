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

// Lines are parsed and merged synchronously in readline's own events, and the generator wakes
// only per batch of finished messages: awaiting each line inside an async generator cost about
// twice the JSON.parse itself (bench:transcripts). Reading pauses while a batch waits.
async function* streamMessages(input: Readable, stats: ReadStats, options: MergeOptions): AsyncGenerator<TranscriptMessage> {
  const merger = createMessageMerger(stats, options);
  const lines = createInterface({ input, crlfDelay: Infinity });
  const ready: TranscriptMessage[] = [];
  let hasPendingFailure = false;
  let isDone = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  lines.on("line", (line) => {
    if (hasPendingFailure) stats.malformedLines++;
    hasPendingFailure = false;
    if (line.length === 0) return;
    stats.lines++;
    const value = parseJsonlObject(line);
    if (!value) {
      hasPendingFailure = true;
      return;
    }
    const completed = merger.push(value);
    if (completed.length === 0) return;
    for (const message of completed) ready.push(message);
    if (ready.length >= READY_BATCH) lines.pause();
    notify();
  });
  lines.on("close", () => {
    stats.isLastLinePartial = hasPendingFailure;
    for (const message of merger.end()) ready.push(message);
    isDone = true;
    notify();
  });
  input.on("error", (error) => {
    failure = error;
    isDone = true;
    notify();
  });
  try {
    for (;;) {
      if (ready.length > 0) {
        const batch = ready.splice(0);
        lines.resume();
        yield* batch;
        continue;
      }
      if (failure) throw failure;
      if (isDone) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

const READY_BATCH = 256;

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
