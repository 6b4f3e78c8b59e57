/** One tool call of an assistant reply, with its result re-attached when the transcript has it. */
export type ToolCall = {
  id: string;
  name: string;
  /** The call's input, as the model sent it (capped by the reader). */
  input: Record<string, unknown>;
  result: { text: string; isError: boolean; uuid: string } | null;
};

/**
 * What a line (or, for an assistant reply, several lines sharing `message.id`) means to a reader:
 * - `user`: words a person typed; the only kind extraction may learn from
 * - `meta`: `isMeta` user lines (caveats, command output) the model saw but nobody typed
 * - `compact-summary`: the `isCompactSummary` user line after a compact boundary (C13)
 * - `assistant`: the model's reply, its text and tool calls merged back together
 * - `compact-boundary`, `memory-saved`, `system`: system lines
 * - `tool-result`: a result whose tool_use the reader never saw (kept, not dropped)
 */
export type MessageKind = "user" | "meta" | "compact-summary" | "assistant" | "tool-result" | "compact-boundary" | "memory-saved" | "system";

export type TranscriptMessage = {
  /** The uuid of the message's first line: the position a link or a cursor points at. */
  uuid: string;
  /** Every line uuid merged into this message (an assistant reply spans several). */
  lineUuids: string[];
  parentUuid: string | null;
  kind: MessageKind;
  timestamp: string | null;
  sessionId: string | null;
  isSidechain: boolean;
  /** Text blocks joined, capped by the reader (`isTextCut` says so). */
  text: string;
  isTextCut: boolean;
  toolCalls: ToolCall[];
  /** Memory files written: a memory_saved line's paths, or a Write/Edit call's file_path. */
  writtenPaths: string[];
};

export type ReadStats = {
  lines: number;
  /** Lines that were not JSON and not the last line (a torn write in the middle). */
  malformedLines: number;
  /** C13: a partial last line is expected after a crash and skipped. */
  isLastLinePartial: boolean;
  /** Metadata lines (summary, custom-title, file-history-snapshot, …). */
  metadataLines: number;
};
