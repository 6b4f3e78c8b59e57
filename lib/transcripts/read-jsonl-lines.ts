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

// The JSON escape of a surrogate (\ud800–\udfff): only then can a parsed string hold half a pair.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * One JSONL line as an object, or null. Half an emoji written as `\ud83d` (a cut paste, cut tool
 * output) parses into a string that is not Unicode, which the database refuses mid-run: such
 * halves become U+FFFD here, before anything is kept or sent.
 */
export function parseJsonlObject(line: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return (SURROGATE_ESCAPE.test(line) ? replaceLoneSurrogates(value) : value) as Record<string, unknown>;
}

function replaceLoneSurrogates(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\uFFFD");
  if (Array.isArray(value)) return value.map(replaceLoneSurrogates);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replace(LONE_SURROGATE, "\uFFFD"), replaceLoneSurrogates(inner)]));
}

export function emptyReadStats(): ReadStats {
  return { lines: 0, malformedLines: 0, isLastLinePartial: false, metadataLines: 0 };
}
