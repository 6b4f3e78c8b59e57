/** C8: a recalled memory is injected with at most 200 lines… */
export const MAX_INJECTED_LINES = 200;
/** …and at most 4096 bytes (UTF-8, so a multi-byte note never exceeds the budget). */
export const MAX_INJECTED_BYTES = 4096;

export type CutContent = { text: string; isCut: boolean };

/**
 * C8: keeps whole lines within both limits. A first line longer than the byte limit is cut at
 * the last whole character before it (as I3 does for the index), so something is always shown.
 * `hasMore` says the text given is itself only the start of the file.
 */
export function cutMemoryContent(text: string, hasMore = false): CutContent {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop(); // a final newline ends the last line, it does not start one
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, MAX_INJECTED_LINES)) {
    const lineBytes = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > MAX_INJECTED_BYTES) break;
    kept.push(line);
    bytes += lineBytes;
  }
  if (kept.length === 0 && lines.length > 0) return { text: cutToBytes(lines[0] ?? "", MAX_INJECTED_BYTES), isCut: true };
  return { text: kept.join("\n"), isCut: hasMore || kept.length < lines.length };
}

function cutToBytes(line: string, maxBytes: number): string {
  let end = Math.min(line.length, maxBytes);
  while (end > 0 && Buffer.byteLength(line.slice(0, end), "utf8") > maxBytes) end--;
  // Never split a surrogate pair.
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return line.slice(0, end);
}
