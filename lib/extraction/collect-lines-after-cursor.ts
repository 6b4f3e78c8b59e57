import { redactSecrets } from "../secrets/redact-secrets";
import { emptyReadStats, readJsonlLines } from "../transcripts/read-jsonl-lines";

export type LinesAfterCursor = { text: string; sessionId: string | null; lineCount: number; isCut: boolean };

/**
 * The transcript lines after a cursor (all when it is absent or not found), every string value
 * secret-redacted, the newest kept within `maxBytes`: what `teammem extract` sends the server.
 * Streams the file, so its size does not matter.
 */
export async function collectLinesAfterCursor(filePath: string, cursor: string | null, maxBytes: number): Promise<LinesAfterCursor> {
  let kept: string[] = [];
  let bytes = 0;
  let isCut = false;
  let sessionId: string | null = null;
  for await (const line of readJsonlLines(filePath, emptyReadStats())) {
    if (typeof line.sessionId === "string") sessionId ??= line.sessionId;
    if (cursor !== null && line.uuid === cursor) {
      kept = [];
      bytes = 0;
      isCut = false;
      continue;
    }
    // Redacted at the end: only what is kept pays for the scan.
    const text = JSON.stringify(line);
    kept.push(text);
    bytes += Buffer.byteLength(text, "utf8") + 1;
    while (bytes > maxBytes && kept.length > 1) {
      bytes -= Buffer.byteLength(kept.shift()!, "utf8") + 1;
      isCut = true;
    }
  }
  const redacted = kept.map((text) => JSON.stringify(redactValues(JSON.parse(text))));
  return { text: redacted.length ? `${redacted.join("\n")}\n` : "", sessionId, lineCount: kept.length, isCut };
}

function redactValues(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value).text;
  if (Array.isArray(value)) return value.map(redactValues);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactValues(inner)]));
  return value;
}
