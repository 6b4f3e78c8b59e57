import * as z from "zod/mini";
import { AppError } from "../errors";
import { askModelForJson, type RecallModelSettings } from "./model";
import { buildRecallUserMessage, RECALL_ANSWER_SCHEMA, RECALL_SYSTEM_PROMPT } from "./recall-prompt";

/** R3: the answer is short; 256 tokens hold five file names with room to spare. */
export const RECALL_MAX_TOKENS = 256;

/**
 * R6: the model's deadline when the caller sets none (the API without `modelTimeoutMs`, the
 * playground, `teammem recall`). A healthy model picks five names in a second or two; one that
 * takes longer is worth less than the local ranker's answer now (it was 10 s, and a hung model
 * then held a recall slot for all of it).
 */
export const RECALL_MODEL_TIMEOUT_MS = 5_000;

/**
 * R6: recall does not retry the model inside its deadline. The SDK's retry waits as long as a
 * 429's Retry-After asks (30 s from the Messages API), so a rate-limited recall sat out its whole
 * deadline and was reported as a timeout, which a hook-sized deadline never counts against the
 * model. The breaker is recall's retry: a failure falls back now and pauses the model.
 */
export const RECALL_MAX_RETRIES = 0;

const answerSchema = z.object({ selected_memories: z.array(z.string()) });

export type ModelSelectionOptions = {
  settings: RecallModelSettings;
  query: string;
  manifest: string;
  recentTools: readonly string[];
  signal?: AbortSignal;
};

/**
 * R1-R3: asks the model which manifest entries to inject. Returns the names exactly as answered
 * (validation against the scanned set is the caller's job, R5); throws MODEL_UNAVAILABLE when
 * the call fails or the answer does not have the one field asked for.
 */
export async function selectWithModel(options: ModelSelectionOptions): Promise<string[]> {
  const settings = { ...options.settings, timeoutMs: options.settings.timeoutMs ?? RECALL_MODEL_TIMEOUT_MS, maxRetries: options.settings.maxRetries ?? RECALL_MAX_RETRIES };
  const answer = await askModelForJson(settings, {
    system: RECALL_SYSTEM_PROMPT,
    userMessage: buildRecallUserMessage(options.query, options.manifest, options.recentTools),
    schema: { ...RECALL_ANSWER_SCHEMA },
    maxTokens: RECALL_MAX_TOKENS,
    signal: options.signal,
  });
  const parsed = answerSchema.safeParse(answer);
  if (!parsed.success) {
    throw new AppError("MODEL_UNAVAILABLE", "The recall model's answer did not hold a selected_memories list.", {
      details: { failure: "malformed-answer" },
    });
  }
  return parsed.data.selected_memories.map((name) => name.trim());
}
