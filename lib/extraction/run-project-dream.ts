import type { Config } from "../config";
import type { Db } from "../db/client";
import { isAppError } from "../errors";
import { loadRecallSource } from "../read-model/load-recall-source";
import { formatModelManifest } from "../recall/format-model-manifest";
import type { ExtractionCandidate, ExtractionSelector } from "./candidate-types";
import { distilDailyLogs, type DailyLog } from "./distil-daily-logs";
import { dreamWithModel } from "./dream-with-model";
import { proposeCandidate, type ProposedCandidate } from "./run-project-extraction";

export type ProjectDreamInput = { projectId: string; userId: string; logs: DailyLog[] };

export type ProjectDreamResult = { selector: ExtractionSelector; fallbackReason?: string; candidates: ProposedCandidate[] };

/**
 * T4 on the server: the model distils a member's daily logs into topic memories, each proposed
 * with source `extraction` and the logs it rests on. Without a model (no key, or it failed) the
 * topics found by heading are only listed: grouping by heading is too rough to queue for a lead.
 */
export async function runProjectDream(config: Config, db: Db, input: ProjectDreamInput): Promise<ProjectDreamResult> {
  const listOnly = (reason: string): ProjectDreamResult => ({ selector: "rules", fallbackReason: reason, candidates: distilDailyLogs(input.logs).map((candidate) => ({ ...candidate, proposal: { skipped: "no-model" } })) });
  if (!config.anthropicApiKey) return listOnly("no model key configured: candidates listed, not proposed");
  const source = await loadRecallSource(config, db, input.projectId);
  const known = new Set(source.memories.map((memory) => memory.path));
  let found: ExtractionCandidate[];
  try {
    found = await dreamWithModel({
      settings: { apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, model: config.extractionModel, timeoutMs: config.extractionTimeoutMs },
      library: { manifest: formatModelManifest(source.memories), readMemory: async (file) => (known.has(file) ? source.readText(file) : null) },
      logs: input.logs,
    });
  } catch (error) {
    if (!isAppError(error) || error.code !== "MODEL_UNAVAILABLE") throw error;
    return listOnly(`${error.message} Candidates listed, not proposed.`);
  }
  const candidates: ProposedCandidate[] = [];
  for (const candidate of found) {
    const provenance = { kind: "dream", selector: "model", confidence: candidate.confidence, logs: input.logs.map((log) => log.file).slice(-31), evidence: candidate.evidence.slice(0, 4) };
    candidates.push({ ...candidate, proposal: await proposeCandidate(config, db, input, candidate, provenance) });
  }
  return { selector: "model", candidates };
}
