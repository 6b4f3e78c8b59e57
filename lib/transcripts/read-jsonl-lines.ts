import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { ReadStats } from "./transcript-types";

/**
 * Streams the JSON objects of a JSONL file one line at a time, so a 200 MB transcript is never
 * held whole. A line that does not parse is skipped: the last one is a torn write (C13), any
 * other is counted in `stats.malformedLines`.
 */
export function readJsonlLines(filePath: string, stats: ReadStats): AsyncGenerator<Record<string, unknown>> {
  return readJsonlStream(createReadStream(filePath, { encoding: "utf8", highWaterMark: 256 * 1024 }), stats);
}

/** The same over any text stream (a transcript excerpt sent in a request body). */
export async function* readJsonlStream(input: Readable, stats: ReadStats): AsyncGenerator<Record<string, unknown>> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let hasPendingFailure = false;
  for await (const line of lines) {
    if (hasPendingFailure) stats.malformedLines++;
    hasPendingFailure = false;
    if (line.length === 0) continue;
    stats.lines++;
    const value = parseJsonlObject(line);
    if (value) yield value;
    else hasPendingFailure = true;
  }
  stats.isLastLinePartial = hasPendingFailure;
}

export function parseJsonlObject(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function emptyReadStats(): ReadStats {
  return { lines: 0, malformedLines: 0, isLastLinePartial: false, metadataLines: 0 };
}
