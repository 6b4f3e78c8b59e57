import { redactSecrets } from "../secrets/redact-secrets";
import type { MessageKind, TranscriptMessage } from "./transcript-types";

/** A tool that ran, as a reader needs it: what, on what, and whether it failed. */
export type ViewToolCall = { name: string; target: string; isError: boolean; resultPreview: string };

/**
 * One message of the conversation view a person reads (who said what, which tools ran, which
 * memory files were written). Every text in it is redacted and capped: this is what may be
 * stored and shown; the transcript itself stays private.
 */
export type ViewMessage = {
  uuid: string;
  kind: MessageKind;
  timestamp: string | null;
  isSidechain: boolean;
  text: string;
  tools: ViewToolCall[];
  writtenPaths: string[];
};

export const VIEW_TEXT_CHARS = 1200;
const PREVIEW_CHARS = 200;

/** Redacts and caps one transcript message for the view (and for anything stored or sent). */
export function toViewMessage(message: TranscriptMessage, maxTextChars = VIEW_TEXT_CHARS): ViewMessage {
  return {
    uuid: message.uuid,
    kind: message.kind,
    timestamp: message.timestamp,
    isSidechain: message.isSidechain,
    text: redactAndCut(message.text, maxTextChars),
    tools: message.toolCalls.map((call) => ({
      name: call.name,
      target: redactAndCut(describeTarget(call.input), PREVIEW_CHARS),
      isError: call.result?.isError === true,
      resultPreview: redactAndCut(call.result?.text ?? "", PREVIEW_CHARS),
    })),
    writtenPaths: message.writtenPaths.map((written) => redactAndCut(written, PREVIEW_CHARS)),
  };
}

/** Who speaks in a message, as the view labels it. */
export function speakerOf(kind: MessageKind): string {
  if (kind === "user") return "User";
  if (kind === "assistant") return "Claude";
  if (kind === "meta") return "Shown to the model";
  if (kind === "compact-summary") return "Summary after compacting";
  if (kind === "tool-result") return "Tool result";
  if (kind === "memory-saved") return "Memory saved";
  if (kind === "compact-boundary") return "Conversation compacted";
  return "System";
}

/** The JSON size of view messages, to keep what is stored under a cap. */
export function viewBytes(messages: ViewMessage[]): number {
  return Buffer.byteLength(JSON.stringify(messages), "utf8");
}

function describeTarget(input: Record<string, unknown>): string {
  for (const key of ["file_path", "notebook_path", "path", "pattern", "command", "url", "query", "description"]) {
    if (typeof input[key] === "string") return input[key] as string;
  }
  return "";
}

// Redact first, then cut: cutting first could split a secret so that the scanner misses its rest.
function redactAndCut(text: string, maxChars: number): string {
  const redacted = redactSecrets(text).text;
  return redacted.length > maxChars ? `${redacted.slice(0, maxChars)}…` : redacted;
}
