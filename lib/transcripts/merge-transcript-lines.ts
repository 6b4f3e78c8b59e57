import type { MessageKind, ReadStats, ToolCall, TranscriptMessage } from "./transcript-types";

export type MergeOptions = {
  /** Longest text kept per message and per tool result; the rest is cut (a reader, not an archive). */
  maxTextChars?: number;
  /** Lines read from a sub-agent file are sidechain lines even when they do not say so. */
  isSidechainFile?: boolean;
};

const DEFAULT_MAX_TEXT_CHARS = 4000;
const MAX_INPUT_STRING_CHARS = 1000;
const FILE_WRITING_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

type Line = Record<string, unknown>;

/**
 * C13: turns a transcript's lines back into the messages a person saw. An assistant reply is
 * written one line per content block sharing `message.id`: merged. A `tool_result` user line is
 * re-attached to its `tool_use` by id (parallel calls answer in any order, possibly between the
 * reply's own lines), falling back to `parentUuid`. Metadata lines are counted and skipped.
 * Holds at most one open reply, so memory stays flat however long the transcript is.
 */
export async function* mergeTranscriptLines(lines: AsyncIterable<Line>, stats: ReadStats, options: MergeOptions = {}): AsyncGenerator<TranscriptMessage> {
  const merger = createMessageMerger(stats, options);
  for await (const line of lines) yield* merger.push(line);
  yield* merger.end();
}

export type MessageMerger = {
  /** The messages this line completes (usually none or one); reuse the array before the next push. */
  push: (line: Line) => TranscriptMessage[];
  end: () => TranscriptMessage[];
};

/** The synchronous heart of mergeTranscriptLines, for a reader that wants one async layer only. */
export function createMessageMerger(stats: ReadStats, options: MergeOptions = {}): MessageMerger {
  const maxChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  let open: OpenReply | null = null;
  const done: TranscriptMessage[] = [];
  const close = () => {
    if (open) done.push(open.message);
    open = null;
  };
  return {
    end() {
      done.length = 0;
      close();
      return done;
    },
    push(line) {
      done.length = 0;
      const type = line.type;
      if (type !== "user" && type !== "assistant" && type !== "system") {
        stats.metadataLines++;
        return done;
      }
      const inner = asRecord(line.message);
      const content = inner?.content;
      if (type === "assistant") {
        const messageId = typeof inner?.id === "string" ? inner.id : stringOf(line.uuid);
        if (open && open.messageId === messageId) {
          appendAssistantBlocks(open, line, content, maxChars);
          return done;
        }
        close();
        open = { message: baseMessage(line, "assistant", options), messageId, callsByLine: new Map() };
        appendAssistantBlocks(open, line, content, maxChars);
        return done;
      }
      if (type === "user" && Array.isArray(content) && content.some(isToolResultBlock)) {
        const orphans: TranscriptMessage[] = [];
        for (const block of content) {
          if (!isToolResultBlock(block)) continue;
          const call = open ? findCall(open, block, line) : null;
          const result = { text: cut(textOfResult(block.content), maxChars), isError: block.is_error === true, uuid: stringOf(line.uuid) };
          if (call) call.result = result;
          else orphans.push({ ...baseMessage(line, "tool-result", options), text: result.text });
        }
        const typed = textOf(content.filter((block) => !isToolResultBlock(block)));
        if (orphans.length === 0 && typed === "") return done;
        close();
        done.push(...orphans);
        if (typed !== "") done.push(withText(baseMessage(line, userKind(line, typed), options), typed, maxChars));
        return done;
      }
      close();
      if (type === "user") {
        const text = textOf(content);
        done.push(withText(baseMessage(line, userKind(line, text), options), text, maxChars));
        return done;
      }
      done.push(systemMessage(line, options, maxChars));
      return done;
    },
  };
}

type OpenReply = { message: TranscriptMessage; messageId: string; callsByLine: Map<string, ToolCall> };

function appendAssistantBlocks(open: { message: TranscriptMessage; callsByLine: Map<string, ToolCall> }, line: Line, content: unknown, maxChars: number): void {
  const lineUuid = stringOf(line.uuid);
  if (lineUuid && !open.message.lineUuids.includes(lineUuid)) open.message.lineUuids.push(lineUuid);
  for (const block of Array.isArray(content) ? content : [{ type: "text", text: content }]) {
    const record = asRecord(block);
    if (record?.type === "text" && typeof record.text === "string") {
      const joined = open.message.text ? `${open.message.text}\n${record.text}` : record.text;
      open.message.isTextCut ||= joined.length > maxChars;
      open.message.text = cut(joined, maxChars);
    }
    if (record?.type === "tool_use") {
      const call: ToolCall = { id: stringOf(record.id), name: stringOf(record.name), input: capInput(asRecord(record.input) ?? {}), result: null };
      open.message.toolCalls.push(call);
      if (lineUuid) open.callsByLine.set(lineUuid, call);
      const writtenPath = call.input.file_path ?? call.input.notebook_path;
      if (FILE_WRITING_TOOLS.has(call.name) && typeof writtenPath === "string") open.message.writtenPaths.push(writtenPath);
    }
  }
}

function findCall(open: { message: TranscriptMessage; callsByLine: Map<string, ToolCall> }, block: Record<string, unknown>, line: Line): ToolCall | null {
  const byId = open.message.toolCalls.find((call) => call.id !== "" && call.id === block.tool_use_id && call.result === null);
  if (byId) return byId;
  const byParent = open.callsByLine.get(stringOf(line.parentUuid));
  return byParent && byParent.result === null ? byParent : null;
}

function systemMessage(line: Line, options: MergeOptions, maxChars: number): TranscriptMessage {
  const subtype = line.subtype;
  const text = typeof line.content === "string" ? line.content : "";
  if (subtype === "compact_boundary") return withText(baseMessage(line, "compact-boundary", options), text, maxChars);
  if (subtype !== "memory_saved") return withText(baseMessage(line, "system", options), text, maxChars);
  const message = withText(baseMessage(line, "memory-saved", options), text, maxChars);
  const listed = [line.writtenPaths, line.paths].find(Array.isArray) ?? [];
  message.writtenPaths = listed.filter((item): item is string => typeof item === "string");
  return message;
}

function userKind(line: Line, text: string): MessageKind {
  if (line.isCompactSummary === true) return "compact-summary";
  // Slash-command echoes and their output are written as user lines, but nobody typed them as words.
  if (line.isMeta === true || /^\s*<(?:command-|local-command-)/.test(text)) return "meta";
  return "user";
}

function baseMessage(line: Line, kind: MessageKind, options: MergeOptions): TranscriptMessage {
  const uuid = stringOf(line.uuid);
  return {
    uuid,
    lineUuids: uuid ? [uuid] : [],
    parentUuid: typeof line.parentUuid === "string" ? line.parentUuid : null,
    kind,
    timestamp: typeof line.timestamp === "string" ? line.timestamp : null,
    sessionId: typeof line.sessionId === "string" ? line.sessionId : null,
    isSidechain: options.isSidechainFile === true || line.isSidechain === true,
    text: "",
    isTextCut: false,
    toolCalls: [],
    writtenPaths: [],
  };
}

function withText(message: TranscriptMessage, text: string, maxChars: number): TranscriptMessage {
  message.text = cut(text, maxChars);
  message.isTextCut = text.length > maxChars;
  return message;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => asRecord(block))
    .filter((block) => block?.type === "text" && typeof block.text === "string")
    .map((block) => block!.text as string)
    .join("\n");
}

function textOfResult(content: unknown): string {
  return typeof content === "string" ? content : textOf(content);
}

function isToolResultBlock(block: unknown): block is Record<string, unknown> {
  return asRecord(block)?.type === "tool_result";
}

function capInput(input: Record<string, unknown>): Record<string, unknown> {
  const capped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) capped[key] = typeof value === "string" ? cut(value, MAX_INPUT_STRING_CHARS) : value;
  return capped;
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function stringOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}
