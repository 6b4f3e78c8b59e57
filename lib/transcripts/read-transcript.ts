import { readdir } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { emptyReadStats, readJsonlLines, readJsonlStream } from "./read-jsonl-lines";
import { mergeTranscriptLines, type MergeOptions } from "./merge-transcript-lines";
import type { ReadStats, TranscriptMessage } from "./transcript-types";

export type TranscriptReader = {
  messages: AsyncGenerator<TranscriptMessage>;
  /** Filled in as `messages` is consumed; final once it is done. */
  stats: ReadStats;
};

/** Streams one session file's messages (C13); see mergeTranscriptLines for what is merged. */
export function readTranscript(filePath: string, options: MergeOptions = {}): TranscriptReader {
  const stats = emptyReadStats();
  return { messages: mergeTranscriptLines(readJsonlLines(filePath, stats), stats, options), stats };
}

/** The same for JSONL text already in memory (a request body, bounded by its size limit). */
export function readTranscriptText(text: string, options: MergeOptions = {}): TranscriptReader {
  const stats = emptyReadStats();
  return { messages: mergeTranscriptLines(readJsonlStream(Readable.from([text]), stats), stats, options), stats };
}

/** C13: a session's sub-agents write `<session-uuid>/subagents/agent-<id>.jsonl` beside it. */
export async function findSubagentTranscripts(sessionFile: string): Promise<string[]> {
  const folder = path.join(path.dirname(sessionFile), path.basename(sessionFile, ".jsonl"), "subagents");
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => /^agent-.+\.jsonl$/.test(name)).sort().map((name) => path.join(folder, name));
}
