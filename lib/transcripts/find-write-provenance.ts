import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { redactSecrets } from "../secrets/redact-secrets";
import { readTranscript } from "./read-transcript";
import type { TranscriptMessage } from "./transcript-types";

/** What `teammem sync --share-evidence` attaches about how a memory file came to be written. */
export type WriteProvenance = {
  session: string;
  time: string | null;
  /** C10: a `memory_saved` line means background extraction; a Write/Edit call, the main agent. */
  writtenBy: "background-extraction" | "main-agent";
  /** The few messages that led to it, the user's first: redacted, each capped. */
  messages: { uuid: string; role: string; excerpt: string }[];
};

const MAX_SESSIONS = 20;
const CONTEXT_MESSAGES = 4;
const EXCERPT_CHARS = 500;

/**
 * Finds, in a checkout's transcripts folder (`~/.claude/projects/<folder>/*.jsonl`), the newest
 * session that wrote `memoryFile` (an absolute path) and what led to it. Sessions are read
 * newest first, at most 20, each streamed; null when none wrote it.
 */
export async function findWriteProvenance(transcriptsDir: string, memoryFile: string): Promise<WriteProvenance | null> {
  const target = path.resolve(memoryFile);
  for (const file of await listSessionsNewestFirst(transcriptsDir)) {
    const found = await findInSession(file, target);
    if (found) return found;
  }
  return null;
}

async function findInSession(file: string, target: string): Promise<WriteProvenance | null> {
  let recent: TranscriptMessage[] = [];
  let found: WriteProvenance | null = null;
  for await (const message of readTranscript(file, { maxTextChars: EXCERPT_CHARS * 2 }).messages) {
    if (message.isSidechain) continue;
    const writesTarget = message.writtenPaths.some((written) => path.resolve(written) === target);
    if (writesTarget) {
      const context = message.kind === "assistant" ? [...recent, message] : recent;
      found = {
        session: message.sessionId ?? path.basename(file, ".jsonl"),
        time: message.timestamp,
        writtenBy: message.kind === "memory-saved" ? "background-extraction" : "main-agent",
        messages: context
          .filter((item) => item.text.trim() !== "")
          .sort((left, right) => Number(right.kind === "user") - Number(left.kind === "user"))
          .map((item) => ({ uuid: item.uuid, role: item.kind, excerpt: excerpt(item.text) })),
      };
    }
    if (message.kind === "user" || message.kind === "assistant") recent = [...recent, message].slice(-CONTEXT_MESSAGES);
  }
  return found;
}

async function listSessionsNewestFirst(dir: string): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".jsonl"));
  const dated = await Promise.all(names.map(async (name) => ({ file: path.join(dir, name), mtime: (await stat(path.join(dir, name))).mtimeMs })));
  return dated.sort((left, right) => right.mtime - left.mtime).slice(0, MAX_SESSIONS).map((entry) => entry.file);
}

function excerpt(text: string): string {
  const redacted = redactSecrets(text.trim()).text;
  return redacted.length > EXCERPT_CHARS ? `${redacted.slice(0, EXCERPT_CHARS)}…` : redacted;
}
