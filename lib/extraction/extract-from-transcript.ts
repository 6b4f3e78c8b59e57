import { isAppError } from "../errors";
import { redactSecrets } from "../secrets/redact-secrets";
import type { RecallModelSettings } from "../recall/model";
import { toViewMessage, viewBytes, type ViewMessage } from "../transcripts/conversation-view";
import type { TranscriptMessage } from "../transcripts/transcript-types";
import type { ExtractionResult } from "./candidate-types";
import { isAtOrBeforeCursor } from "./session-cursor";
import { extractWithModel, type MemoryLibrary } from "./extract-with-model";
import { createRuleExtractor } from "./extract-with-rules";

/** X6: only the latest messages after the cursor reach the model, and at most this much of them. */
export const MAX_NEW_MESSAGES = 120;
export const MAX_EXCERPT_BYTES = 48 * 1024;
const SHOWN_KINDS = new Set(["user", "assistant", "compact-summary", "memory-saved"]);

export type ExtractFromTranscriptOptions = {
  messages: AsyncIterable<TranscriptMessage>;
  /** C10: the uuid of the last message a previous run processed; null = all messages. */
  cursor: string | null;
  /** The cursor message's timestamp, when known: a message at or before it was processed even in a copy that lacks the cursor. */
  cursorTime?: string | null;
  /** Null without a model key: the rules run. */
  model: RecallModelSettings | null;
  library: MemoryLibrary;
  signal?: AbortSignal;
};

export type TranscriptExtraction = ExtractionResult & {
  /** X2: why nothing was extracted although there were new messages (the cursor still moves); plain words, no requirement id. */
  skipped?: string;
  sessionId: string | null;
  /** The redacted, capped messages after the cursor: what a reviewer may be shown. */
  excerpt: ViewMessage[];
  newMessages: number;
  /** The timestamp of the cursor's message (the stored one when nothing new was read). */
  cursorTime: string | null;
};

/**
 * One extraction run over a transcript stream (C10, X6, X8): messages after the cursor only
 * (when the cursor is not found: all, except those written at or before its time), the model when configured, the rules when not or when
 * the model fails. The caller stores the returned cursor only after it has kept the result.
 */
export async function extractFromTranscript(options: ExtractFromTranscriptOptions): Promise<TranscriptExtraction> {
  let rules = createRuleExtractor();
  let window: ViewMessage[] = [];
  let newMessages = 0;
  // Nothing new keeps the cursor where it was: it never moves back.
  let lastUuid = options.cursor;
  let lastTime = options.cursorTime ?? null;
  let hasSeenCursor = false;
  let sessionId: string | null = null;
  let memoryWrite: string | null = null;
  for await (const message of options.messages) {
    sessionId ??= message.sessionId;
    if (options.cursor !== null && message.lineUuids.includes(options.cursor)) {
      // Everything up to here was processed by an earlier run: start over after it.
      rules = createRuleExtractor();
      window = [];
      newMessages = 0;
      memoryWrite = null;
      hasSeenCursor = true;
      lastUuid = options.cursor;
      lastTime = options.cursorTime ?? message.timestamp;
      continue;
    }
    // A copy without the cursor's line (older, shorter) is placed by time; after the line, order decides.
    if (!hasSeenCursor && isAtOrBeforeCursor(message.timestamp, options.cursorTime)) continue;
    lastUuid = message.lineUuids.at(-1) ?? lastUuid;
    lastTime = message.timestamp ?? lastTime;
    newMessages++;
    rules.add(message);
    memoryWrite ??= findMainAgentMemoryWrite(message);
    if (message.isSidechain || !SHOWN_KINDS.has(message.kind)) continue;
    window.push(toViewMessage(message));
    if (window.length > MAX_NEW_MESSAGES) window.shift();
  }
  while (window.length > 1 && viewBytes(window) > MAX_EXCERPT_BYTES) window.shift();
  const base = { sessionId, excerpt: window, newMessages, cursor: lastUuid, cursorTime: lastTime };
  if (newMessages === 0) return { ...base, selector: "rules", candidates: [] };
  if (memoryWrite) return { ...base, selector: "rules", candidates: [], skipped: `the main agent already wrote ${memoryWrite} in these messages` };
  if (!options.model) return { ...base, selector: "rules", candidates: rules.candidates(), fallbackReason: "no model key configured" };
  try {
    const candidates = await extractWithModel({ settings: options.model, library: options.library, messages: window, signal: options.signal });
    return { ...base, selector: "model", candidates };
  } catch (error) {
    if (!isAppError(error) || error.code !== "MODEL_UNAVAILABLE") throw error;
    return { ...base, selector: "rules", candidates: rules.candidates(), fallbackReason: error.message };
  }
}

// A memory file where Claude Code keeps them by default: `<config>/projects/<folder>/memory/…` (team/ included)
// or an agent's memory (G1). A memory directory moved by settings is not recognised on the server.
const MEMORY_DIR_PATH = /(?:^|[\\/])(?:projects[\\/][^\\/]+[\\/]memory|agent-memory(?:-local)?[\\/][^\\/]+)[\\/].+\.md$/;

/**
 * X2: the main agent (not a sub-agent) saved a memory itself with Write/Edit: the memory file's
 * name (its last two parts, never a home folder), or null. Such a range is not extracted again.
 */
function findMainAgentMemoryWrite(message: TranscriptMessage): string | null {
  if (message.kind !== "assistant" || message.isSidechain) return null;
  const written = message.writtenPaths.find((file) => MEMORY_DIR_PATH.test(file));
  return written ? redactSecrets(written.split(/[\\/]/).slice(-2).join("/")).text : null;
}
