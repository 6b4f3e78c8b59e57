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
  return (await collectWriteProvenance(transcriptsDir, (written) => written === target, 1)).get(target) ?? null;
}

/**
 * The same for every written file `isTarget` accepts, in one pass over the sessions (newest
 * first: the newest session that wrote a file wins). Stops early once `expected` files were found.
 */
export async function collectWriteProvenance(transcriptsDir: string, isTarget: (absolutePath: string) => boolean, expected = Infinity): Promise<Map<string, WriteProvenance>> {
  const found = new Map<string, WriteProvenance>();
  for (const file of await listSessionsNewestFirst(transcriptsDir)) {
    for (const [target, provenance] of await findInSession(file, isTarget)) if (!found.has(target)) found.set(target, provenance);
    if (found.size >= expected) break;
  }
  return found;
}

async function findInSession(file: string, isTarget: (absolutePath: string) => boolean): Promise<Map<string, WriteProvenance>> {
  let recent: TranscriptMessage[] = [];
  const found = new Map<string, WriteProvenance>();
  for await (const message of readTranscript(file, { maxTextChars: EXCERPT_CHARS * 2 }).messages) {
    if (message.isSidechain) continue;
    const targets = message.writtenPaths.map((written) => path.resolve(written)).filter(isTarget);
    if (targets.length > 0) {
      const context = message.kind === "assistant" ? [...recent, message] : recent;
      // The last write in a session is the one that made the file as it is now.
      const provenance: WriteProvenance = {
        session: message.sessionId ?? path.basename(file, ".jsonl"),
        time: message.timestamp,
        writtenBy: message.kind === "memory-saved" ? "background-extraction" : "main-agent",
        messages: userWordsFirst(context.filter((item) => item.text.trim() !== "")).map((item) => ({ uuid: item.uuid, role: item.kind, excerpt: excerpt(item.text) })),
      };
      for (const target of targets) found.set(target, provenance);
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

/** The user's words first, the latest (the request that led to the write) leading; then the rest in order. */
function userWordsFirst(messages: TranscriptMessage[]): TranscriptMessage[] {
  return [...messages.filter((item) => item.kind === "user").reverse(), ...messages.filter((item) => item.kind !== "user")];
}

function excerpt(text: string): string {
  const redacted = redactSecrets(text.trim()).text;
  return redacted.length > EXCERPT_CHARS ? `${redacted.slice(0, EXCERPT_CHARS)}…` : redacted;
}
