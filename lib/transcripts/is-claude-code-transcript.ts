import { createReadStream } from "node:fs";
import { emptyReadStats, readJsonlStream } from "./read-jsonl-lines";

/**
 * Whether a file reads as a Claude Code session (C13): empty, or at least one of its JSONL lines
 * is a session record (a JSON object with a string `type`: user, assistant, system, summary, …).
 * Stops at the first record, so a real transcript costs one chunk; a Markdown or JSON file given
 * by mistake holds none.
 */
export async function isClaudeCodeTranscript(filePath: string): Promise<boolean> {
  const input = createReadStream(filePath, { encoding: "utf8", highWaterMark: 256 * 1024 });
  const stats = emptyReadStats();
  try {
    for await (const record of readJsonlStream(input, stats)) if (typeof record.type === "string") return true;
    return stats.lines === 0;
  } finally {
    input.destroy();
  }
}
