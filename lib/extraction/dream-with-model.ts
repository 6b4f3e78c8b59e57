import type { RecallModelSettings } from "../recall/model";
import { redactSecrets } from "../secrets/redact-secrets";
import type { ExtractionCandidate } from "./candidate-types";
import type { DailyLog } from "./distil-daily-logs";
import { proposeWithTools, type MemoryLibrary } from "./extract-with-model";

/** The daily logs sent to the model at most, newest kept: the latest days matter most. */
export const MAX_DREAM_LOG_BYTES = 120 * 1024;

export const DREAM_SYSTEM_PROMPT = `You consolidate a Claude Code assistant's daily logs into topic memories for a team's shared memory (T4).

Work in two turns: first issue every read you need (list_memories, read_memory) in one turn, then issue every propose_memory in the next. You have at most five turns.

Group what the logs say by topic: one memory per topic, not per day. Keep only what will still matter in a month: decisions, conventions, facts about the project that are not in the code. Drop chatter, progress notes and anything derivable from the repository or git history. Turn relative dates into absolute ones.

Scope (T2): type "user" is always private. "feedback" is private unless it is a convention for the whole project. "project" and "reference" are team.

When an existing memory covers the topic, propose the full updated text under its file name instead of a new file. For evidence, give the log file names the memory rests on. Never copy credentials, tokens or passwords into a memory. If nothing is worth keeping, propose nothing.`;

export type DreamWithModelOptions = { settings: RecallModelSettings; library: MemoryLibrary; logs: DailyLog[]; signal?: AbortSignal };

/** T4 with a model: the redacted logs (newest, capped) and the manifest in; proposals out, each citing its logs. */
export async function dreamWithModel(options: DreamWithModelOptions): Promise<ExtractionCandidate[]> {
  const logs = newestWithin(options.logs.map((log) => ({ ...log, text: redactSecrets(log.text).text })), MAX_DREAM_LOG_BYTES);
  const firstMessage = `Existing team memories:\n${options.library.manifest || "(none yet)"}\n\nDaily logs (file in brackets), oldest first:\n${logs.map((log) => `[${log.file}]\n${log.text.trim()}`).join("\n\n")}`;
  return proposeWithTools({
    settings: options.settings,
    library: options.library,
    system: DREAM_SYSTEM_PROMPT,
    firstMessage,
    sources: logs.map((log) => ({ uuid: log.file, role: "daily-log", text: log.text })),
    requiredEvidence: { role: "daily-log", missing: "its evidence names none of the daily logs sent" },
    signal: options.signal,
  });
}

/** The newest logs whose text fits in `maxBytes`, in date order. */
export function newestWithin(logs: DailyLog[], maxBytes: number): DailyLog[] {
  const kept: DailyLog[] = [];
  let bytes = 0;
  for (const log of [...logs].sort((left, right) => right.date.localeCompare(left.date))) {
    bytes += Buffer.byteLength(log.text);
    if (bytes > maxBytes && kept.length > 0) break;
    kept.unshift(log);
  }
  return kept;
}
