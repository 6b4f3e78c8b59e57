import type { Caller } from "../auth/resolve-caller";
import type { Config } from "../config";
import { hashRecallQuery } from "./hash-recall-query";
import type { Db } from "../db/client";
import { log } from "../log";
import { processWide } from "../process-wide";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { loadRecallSource } from "../read-model/load-recall-source";
import { changedPaths, hasCommit } from "../store/git";
import { createModelBreaker, type ModelBreaker } from "./create-model-breaker";
import { recallMemories, type RecallResult } from "./recall-memories";
import { flushRecallLog, recordRecall, type RecallSource } from "./recall-log";

export type ProjectRecallRequest = {
  projectId: string;
  query: string;
  recentTools?: string[];
  alreadySurfaced?: string[];
  allowSingleWord?: boolean;
  /**
   * The store commit the caller's checkout last synced (`teammem sync`). Team memories unchanged
   * since then are on the member's disk, where Claude Code recalls them itself: they are left
   * out, so no memory reaches an agent twice. Unknown to the store: nothing is left out.
   */
  heldCommit?: string;
  /**
   * The model's deadline (default RECALL_MODEL_TIMEOUT_MS): a caller with a deadline of its own
   * (the prompt hook) shortens it; past it the local ranker answers, so an answer still arrives
   * in time (R6).
   */
  modelTimeoutMs?: number;
  /** False: the answer leaves the manifest out (the prompt hook never shows it). */
  includeManifest?: boolean;
  /** A person trying prompts on the Recall page, not an agent: logged apart (see RecallSource). */
  isPlayground?: boolean;
  signal?: AbortSignal;
};

/** How injected memories are named: where a member's agent finds team memory (T1). */
const TEAM_DIR_DISPLAY = "memory/team";

/**
 * Server-side recall over a project's team memory at the store's head, with the configured model
 * (or the local ranker without a key). Every call is recorded (query only as a hash, the
 * selected files, selector, latency) so a lead can see what agents were given.
 */
export async function recallProjectMemories(config: Config, db: Db, caller: Caller, request: ProjectRecallRequest): Promise<RecallResult> {
  const source = await loadRecallSource(config, db, request.projectId);
  const notHeld = request.heldCommit ? await listChangedSince(config, db, request.projectId, request.heldCommit) : null;
  const result = await recallMemories({
    // Read from the read model and the store's blobs: no folder is scanned (the path only names things).
    memoryDir: TEAM_DIR_DISPLAY,
    source: notHeld ? { ...source, memories: source.memories.filter((memory) => notHeld.has(memory.path)) } : source,
    displayDir: TEAM_DIR_DISPLAY,
    query: request.query,
    recentTools: request.recentTools ?? [],
    alreadySurfaced: request.alreadySurfaced ?? [],
    allowSingleWord: request.allowSingleWord ?? false,
    model: config.anthropicApiKey ? { apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, model: config.recallModel, timeoutMs: request.modelTimeoutMs } : null,
    modelBreaker: modelBreakerFor(config),
    includeManifest: request.includeManifest,
    signal: request.signal,
  });
  const selected = result.selected.map((memory) => memory.file);
  recordRecall(db, {
    projectId: request.projectId,
    userId: caller.userId,
    queryHash: hashRecallQuery(config, request.query),
    selector: result.selector,
    selected: JSON.stringify(selected),
    latencyMs: Math.round(result.latencyMs),
    fellBack: result.fallbackReason !== undefined,
    at: new Date(),
    // Agents call with a token; only the dashboard's session may mark a try, so no hook can hide
    // an agent's recall from the lead's log by claiming to be one.
    source: request.isPlayground && caller.via === "session" ? "playground" : "agent",
  });
  log("info", "recall", { projectId: request.projectId, selector: result.selector, selected, latencyMs: Math.round(result.latencyMs), fallback: result.fallbackReason?.split(":")[0] });
  return result;
}

/** R6: after the model failed or timed out, recall skips it this long, then tries it again. */
export const MODEL_COOL_DOWN_MS = 30_000;

// Process-wide, as the admission gates are: every copy of this module must see the same calls.
const modelBreakers = processWide("recallModelBreakers", () => new Map<string, ModelBreaker>());

/**
 * One breaker per model endpoint. Recalls waiting on the model leave one recall slot free
 * (TEAMMEM_MAX_IN_FLIGHT_RECALL less one, at least one), so a hung model never makes the
 * recalls the local ranker answers queue behind it.
 */
function modelBreakerFor(config: Config): ModelBreaker {
  const key = `${config.anthropicBaseUrl ?? "anthropic"} ${config.recallModel}`;
  let breaker = modelBreakers.get(key);
  if (!breaker) {
    breaker = createModelBreaker({ coolDownMs: MODEL_COOL_DOWN_MS, maxWaiting: Math.max(1, config.admission.maxInFlight.recall - 1) });
    modelBreakers.set(key, breaker);
  }
  return breaker;
}

const changedSinceCache = new Map<string, Set<string>>();
const CHANGED_SINCE_CACHE_SIZE = 200;

/**
 * The project's files that differ between the commit a member holds and the read model's commit
 * (one `git diff-tree`, cost bounded by what changed, cached per pair of commits). Null when the
 * store does not know that commit (a typo, a rewritten history): then the member holds nothing
 * we can vouch for.
 */
async function listChangedSince(config: Config, db: Db, projectId: string, heldCommit: string): Promise<Set<string> | null> {
  const { commit } = await ensureReadModel(config, db);
  if (commit === null) return null;
  const key = `${projectId}:${heldCommit}:${commit}`;
  const cached = changedSinceCache.get(key);
  if (cached) return cached;
  if (!(await hasCommit(config.storeCloneDir, heldCommit))) return null;
  const prefix = `projects/${projectId}/`;
  const changed = new Set((await changedPaths(config.storeCloneDir, heldCommit, commit, prefix)).map((change) => change.path.slice(prefix.length)));
  changedSinceCache.set(key, changed);
  if (changedSinceCache.size > CHANGED_SINCE_CACHE_SIZE) changedSinceCache.delete(changedSinceCache.keys().next().value ?? "");
  return changed;
}

export type RecallEventSummary = { id: string; at: Date; userName: string; selector: string; selected: string[]; latencyMs: number; fellBack: boolean; queryHash: string };

/** `before`: the last event of the previous page; the next page starts after it (newest first). */
export type ListRecallEventsOptions = { limit?: number; source?: RecallSource; before?: { at: Date; id: string } };

/**
 * The most recent recalls in a project, newest first, for a lead: what agents were given unless
 * `source` says otherwise. Pages follow the last event shown (keyset, on the (project, time)
 * index), so a page deep in a long log costs what the first does.
 */
export async function listRecallEvents(db: Db, projectId: string, { limit = 50, source = "agent", before }: ListRecallEventsOptions = {}): Promise<RecallEventSummary[]> {
  await flushRecallLog(db);
  const after = before ? { OR: [{ at: { lt: before.at } }, { at: before.at, id: { lt: before.id } }] } : {};
  const events = await db.recallEvent.findMany({ where: { projectId, source, ...after }, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit });
  const users = new Map((await db.user.findMany({ where: { id: { in: [...new Set(events.map((event) => event.userId))] } }, select: { id: true, name: true } })).map((user) => [user.id, user.name]));
  return events.map((event) => ({
    id: event.id,
    at: event.at,
    userName: users.get(event.userId) ?? "deleted account",
    selector: event.selector,
    selected: safeList(event.selected),
    latencyMs: event.latencyMs,
    fellBack: event.fellBack,
    queryHash: event.queryHash.slice(0, 12),
  }));
}

function safeList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}
