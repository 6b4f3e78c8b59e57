import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../files/write-file-atomically";
import { parseJsonOrNull } from "../parse-json";
import { besideMemoryDir } from "../sync/find-team-memory-dir";

/**
 * What the prompt hook remembers between prompts, in one small JSON file beside the memory
 * directory (never inside it, where it would be scanned): per Claude Code session, the team
 * memories already given (R4) and how many bytes (C8's per-session cap); and which teammem
 * project the checkout belongs to, so the project list is asked for once, not on every prompt.
 */
export type PromptHookState = {
  sessions: Record<string, SessionRecall>;
  projects: Record<string, ProjectMatch>;
};

export type SessionRecall = { surfaced: string[]; injectedBytes: number; updatedAt: string };

/** `projectId` null: the server has no project for this checkout (asked again after a while). */
export type ProjectMatch = { projectId: string | null; checkedAt: string };

const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_SESSIONS = 100;
const MAX_PROJECT_ENTRIES = 20;

/** `<memory dir>.teammem-recall-hook.json`, beside `teammem sync`'s state. */
export function promptHookStateFile(memoryDir: string): string {
  return besideMemoryDir(memoryDir, "recall-hook.json");
}

/** The state, or an empty one when the file is missing or damaged (it only saves work). */
export async function readPromptHookState(file: string): Promise<PromptHookState> {
  const value = parseJsonOrNull(await readFile(file, "utf8").catch(() => "")) as Partial<PromptHookState> | null;
  return { sessions: dictionaryOf(value?.sessions) as Record<string, SessionRecall>, projects: dictionaryOf(value?.projects) as Record<string, ProjectMatch> };
}

// Without a prototype: a session id comes from Claude Code's input, and `sessions["__proto__"] = …`
// on a plain object set its prototype instead of a session (that session was never remembered).
function dictionaryOf(value: unknown): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, isRecord(value) ? value : {});
}

/**
 * Writes the state atomically (temporary file + rename in the same folder), dropping sessions
 * idle for a week and keeping at most the 100 most recent, so the file stays small. Two prompts
 * at the same moment in two sessions of one checkout: the later write wins, and the other
 * session at worst is offered a memory a second time.
 */
export async function writePromptHookState(file: string, state: PromptHookState, now: Date): Promise<void> {
  const sessions = Object.entries(state.sessions)
    .filter(([, session]) => now.getTime() - Date.parse(session.updatedAt) < SESSION_TTL_MS)
    .sort(([, a], [, b]) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, MAX_SESSIONS);
  const projects = Object.entries(state.projects)
    .sort(([, a], [, b]) => b.checkedAt.localeCompare(a.checkedAt))
    .slice(0, MAX_PROJECT_ENTRIES);
  const text = `${JSON.stringify({ sessions: Object.fromEntries(sessions), projects: Object.fromEntries(projects) }, null, 2)}\n`;
  // Claude Code makes this folder for its transcripts; a hook may run before it did.
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomically(file, text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
