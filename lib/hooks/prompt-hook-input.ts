import { parseJsonOrNull } from "../parse-json";

/** The fields of Claude Code's UserPromptSubmit input (JSON on stdin) the prompt hook uses. */
export type PromptHookInput = { sessionId: string; prompt: string; cwd: string; transcriptPath: string | null };

/** Null when the text is not a UserPromptSubmit input: the hook then does nothing. */
export function parsePromptHookInput(text: string): PromptHookInput | null {
  const value = parseJsonOrNull(text) as Record<string, unknown> | null;
  if (typeof value !== "object" || value === null) return null;
  const { session_id: sessionId, prompt, cwd, transcript_path: transcriptPath } = value;
  if (typeof sessionId !== "string" || sessionId === "" || typeof prompt !== "string" || typeof cwd !== "string" || cwd === "") return null;
  return { sessionId, prompt, cwd, transcriptPath: typeof transcriptPath === "string" ? transcriptPath : null };
}

/**
 * Prompts recall is not run for: C8's one-word prompts ("yes", "continue") and slash commands,
 * which arrive as typed (`/clear`, `/review 12`) and name a command, not a topic.
 */
export function skipReasonForPrompt(prompt: string): string | null {
  const text = prompt.trim();
  if (text.startsWith("/")) return "slash-command";
  if (text.split(/\s+/).filter(Boolean).length <= 1) return "one-word-prompt";
  return null;
}
