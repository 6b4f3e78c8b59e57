import path from "node:path";
import { performance } from "node:perf_hooks";
import { resolveApiTarget } from "../client/resolve-api-target";
import { callTeammemApi, type ApiTarget } from "../client/teammem-api";
import type { Config } from "../config";
import { findCanonicalGitRoot } from "../memdir/find-canonical-git-root";
import { resolveMemoryDir } from "../memdir/resolve-memory-dir";
import { isSafeMemoryKey } from "../memdir/validate-memory-key";
import { fitRecallQuery } from "../recall/fit-recall-query";
import { MAX_SELECTED } from "../recall/validate-selection";
import { redactSecrets } from "../secrets/redact-secrets";
import { readSyncHead } from "../sync/read-sync-head";
import { findProjectForOrigin, readCheckoutOrigin } from "./find-checkout-project";
import { parsePromptHookInput, skipReasonForPrompt, type PromptHookInput } from "./prompt-hook-input";
import { promptHookStateFile, readPromptHookState, writePromptHookState, type PromptHookState, type SessionRecall } from "./prompt-hook-state";

/** C8: recall stops for a session once about this much memory text was injected. */
export const SESSION_RECALL_BYTES = 60 * 1024;
/**
 * Claude Code shows a hook's output whole up to about 10,000 characters and only a short preview
 * beyond (observed, not documented): what does not fit waits for a later prompt.
 */
export const MAX_CONTEXT_CHARS = 9_500;
/** How long a found project is trusted, and how long "no project here" is, before asking again. */
const PROJECT_FOUND_TTL_MS = 24 * 60 * 60 * 1000;
const PROJECT_MISSING_TTL_MS = 10 * 60 * 1000;
/** Kept back from the model's share of the budget for the round trip and the fallback. */
const MODEL_MARGIN_MS = 300;
/** The recall API takes at most this many already-surfaced names. */
const MAX_SURFACED_SENT = 500;

export type PromptRecallOptions = {
  /** The hook's stdin: Claude Code's UserPromptSubmit JSON. */
  input: string;
  config: Pick<Config, "cliToken" | "cliServer" | "cliConfigDir" | "claudeCodeEnv" | "homeDir">;
  /** performance.now() value by which everything must be done; past it, nothing is printed. */
  deadline: number;
  now?: Date;
};

/** What to print (null: nothing) and why, for `--explain` and tests. */
export type PromptRecallOutcome = { output: string | null; reason: string; given: string[] };

type RecalledText = { file: string; injection: string };

/**
 * The UserPromptSubmit hook: sends the prompt (secrets redacted) to the checkout's teammem
 * project and returns the memories the server selects, in the hook output format Claude Code
 * adds to the model's context. It fails open: anything that goes wrong or runs past the
 * deadline yields no output, never an error the user has to read or a blocked prompt.
 */
export async function runPromptRecallHook(options: PromptRecallOptions): Promise<PromptRecallOutcome> {
  const input = parsePromptHookInput(options.input);
  if (!input) return silent("no-hook-input");
  const skip = skipReasonForPrompt(input.prompt);
  if (skip) return silent(skip);
  try {
    return await recallForPrompt(input, options);
  } catch (error) {
    // An aborted request surfaces as SERVER_UNAVAILABLE; past the deadline, the budget was the cause.
    if (performance.now() >= options.deadline - 5) return silent("out of time");
    return silent(`failed: ${(error as { code?: string })?.code ?? (error as Error)?.name ?? "error"}`);
  }
}

async function recallForPrompt(input: PromptHookInput, options: PromptRecallOptions): Promise<PromptRecallOutcome> {
  const now = options.now ?? new Date();
  const remaining = () => options.deadline - performance.now();
  const budget = () => AbortSignal.timeout(Math.max(1, Math.floor(remaining())));

  const target = await resolveApiTarget(options.config).catch(() => null);
  if (!target) return silent("not-logged-in");
  const { memoryDir } = await resolveMemoryDir({ env: options.config.claudeCodeEnv, homeDir: options.config.homeDir, cwd: input.cwd });
  const stateFile = promptHookStateFile(memoryDir);
  const state = await readPromptHookState(stateFile);
  const session = readSession(state, input.sessionId);
  if (session.injectedBytes >= SESSION_RECALL_BYTES) return silent("session-cap-reached");

  // `teammem sync` remembers the checkout's project and the store commit team/ holds.
  const synced = await readSyncHead(memoryDir).catch(() => null);
  const syncedHere = synced && synced.server === target.server ? synced : null;
  const projectId = syncedHere?.projectId ?? (await resolveProject(target, input.cwd, state, now, remaining, budget));
  if (!projectId) {
    await writePromptHookState(stateFile, state, now);
    return silent("no-project");
  }
  const heldCommit = syncedHere?.syncedCommit ?? null;
  // A prompt with a credential is still worth a recall; the credential never leaves the machine.
  const query = fitRecallQuery(redactSecrets(input.prompt).text);
  const answer = await callTeammemApi<unknown>(
    target,
    "POST",
    `/api/projects/${encodeURIComponent(projectId)}/recall`,
    // The hook hands over injections only: the manifest would be most of the answer's bytes.
    { query, alreadySurfaced: session.surfaced.slice(-MAX_SURFACED_SENT), ...(heldCommit ? { heldCommit } : {}), modelTimeoutMs: modelTimeout(remaining()), includeManifest: false },
    { signal: budget() },
  );
  const fitting = fitToLimits(readSelected(answer), session.injectedBytes);
  // Masked once cut to size (bounded work), then cut again: a marker can be longer than its secret.
  const given = fitToLimits(await maskSecretsIn(fitting), session.injectedBytes);
  if (remaining() <= 0) return silent("out of time");
  state.sessions[input.sessionId] = {
    surfaced: [...session.surfaced, ...given.map((memory) => memory.file)],
    injectedBytes: session.injectedBytes + given.reduce((sum, memory) => sum + Buffer.byteLength(memory.injection), 0),
    updatedAt: now.toISOString(),
  };
  await writePromptHookState(stateFile, state, now);
  if (given.length === 0) return silent("nothing-selected");
  const additionalContext = given.map((memory) => memory.injection).join("\n");
  const output = JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext } });
  return { output, reason: "recalled", given: given.map((memory) => memory.file) };
}

/** The checkout's project: from the state file while fresh, else matched against the server's list. */
async function resolveProject(target: ApiTarget, cwd: string, state: PromptHookState, now: Date, remaining: () => number, budget: () => AbortSignal): Promise<string | null> {
  const checkout = (await findCanonicalGitRoot(cwd))?.worktreeRoot ?? path.resolve(cwd);
  const origin = await readCheckoutOrigin(checkout, remaining());
  if (!origin) return null;
  const key = `${target.server} ${origin}`;
  const known = state.projects[key];
  const age = known ? now.getTime() - Date.parse(known.checkedAt) : Infinity;
  if (known && age < (known.projectId ? PROJECT_FOUND_TTL_MS : PROJECT_MISSING_TTL_MS)) return known.projectId;
  const projectId = await findProjectForOrigin(target, origin, budget());
  state.projects[key] = { projectId, checkedAt: now.toISOString() };
  return projectId;
}

/**
 * What the server's model selector may take of the remaining budget: the rest goes to the round
 * trip, the local ranker's fallback and writing the answer. Within a second the model often
 * cannot answer, and the server's local ranker does (the recall log records that fallback).
 */
function modelTimeout(remainingMs: number): number {
  return Math.min(10_000, Math.max(50, Math.floor(remainingMs - MODEL_MARGIN_MS)));
}

/**
 * The answer's memories as the recall API promises them, whatever a broken or hostile server
 * sent: well formed, named by a valid memory key (C12), once each, at most five (R5).
 */
export function readSelected(answer: unknown): RecalledText[] {
  const selected = (answer as { selected?: unknown } | null)?.selected;
  if (!Array.isArray(selected)) return [];
  const given: RecalledText[] = [];
  for (const entry of selected as unknown[]) {
    if (given.length >= MAX_SELECTED) break;
    const { file, injection } = (entry ?? {}) as { file?: unknown; injection?: unknown };
    if (typeof file !== "string" || typeof injection !== "string" || !isSafeMemoryKey(file)) continue;
    if (!given.some((memory) => memory.file === file)) given.push({ file, injection });
  }
  return given;
}

/**
 * The hook never hands Claude Code a secret: the server masks injections, and they are masked
 * again here in case it did not. The masking modules load only when there is something to print.
 */
export async function maskSecretsIn(selected: RecalledText[]): Promise<RecalledText[]> {
  if (selected.length === 0) return selected;
  const { maskSecretsInQuotedNames } = await import("../secrets/mask-secret-ranges");
  return selected.map((memory) => ({ file: memory.file, injection: maskSecretsInQuotedNames(memory.injection) }));
}

/** Memories in the server's order while they fit the output limit and the session's cap (C8). */
export function fitToLimits<T extends { injection: string }>(selected: T[], injectedBytes: number): T[] {
  const given: T[] = [];
  let chars = 0;
  let bytes = injectedBytes;
  for (const memory of selected) {
    const size = Buffer.byteLength(memory.injection);
    if (chars + memory.injection.length + 1 > MAX_CONTEXT_CHARS || bytes + size > SESSION_RECALL_BYTES) continue;
    given.push(memory);
    chars += memory.injection.length + 1;
    bytes += size;
  }
  return given;
}

function readSession(state: PromptHookState, sessionId: string): SessionRecall {
  const session = state.sessions[sessionId];
  const surfaced = Array.isArray(session?.surfaced) ? session.surfaced.filter((file): file is string => typeof file === "string") : [];
  const injectedBytes = typeof session?.injectedBytes === "number" && Number.isFinite(session.injectedBytes) ? session.injectedBytes : 0;
  return { surfaced, injectedBytes, updatedAt: typeof session?.updatedAt === "string" ? session.updatedAt : new Date(0).toISOString() };
}

function silent(reason: string): PromptRecallOutcome {
  return { output: null, reason, given: [] };
}
