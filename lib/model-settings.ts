import { AppError } from "./errors";

/**
 * The Anthropic settings alone, read without the full configuration schema. `teammem recall`
 * needs nothing else, and loading zod for the rest cost it ~20 ms of start-up (issue 11 aims at
 * +10 ms over `teammem scan`). lib/config.ts validates the same variables with these same rules,
 * so both readings accept and refuse exactly the same values.
 */
export const DEFAULT_RECALL_MODEL = "claude-sonnet-4-6";

export const MODEL_ID_RULE = { pattern: /^[A-Za-z0-9._:-]{1,100}$/, message: "must be a model id such as claude-sonnet-4-6" };
export const BASE_URL_RULE = { pattern: /^https?:\/\/[^\s]+$/, message: "must be an http:// or https:// URL" };

export type ModelSettings = { apiKey: string | null; baseUrl: string | null; recallModel: string };

/** ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and TEAMMEM_RECALL_MODEL; throws CONFIG_INVALID as loadConfig does. */
export function loadModelSettings(env: Record<string, string | undefined> = process.env): ModelSettings {
  const baseUrl = readText(env.ANTHROPIC_BASE_URL);
  const recallModel = readText(env.TEAMMEM_RECALL_MODEL);
  const problems: string[] = [];
  if (baseUrl !== null && !BASE_URL_RULE.pattern.test(baseUrl)) problems.push(`ANTHROPIC_BASE_URL ${BASE_URL_RULE.message}`);
  if (recallModel !== null && !MODEL_ID_RULE.pattern.test(recallModel)) problems.push(`TEAMMEM_RECALL_MODEL ${MODEL_ID_RULE.message}`);
  if (problems.length > 0) {
    throw new AppError("CONFIG_INVALID", `Invalid configuration: ${problems.join("; ")}.`, {
      details: { variables: problems.map((problem) => problem.split(" ")[0]) },
    });
  }
  return { apiKey: readText(env.ANTHROPIC_API_KEY), baseUrl, recallModel: recallModel ?? DEFAULT_RECALL_MODEL };
}

/** As the configuration reads text: trimmed, and blank counts as unset. */
function readText(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
