import { memoryAge } from "../memdir/age";
import type { MemoryType } from "../memdir/frontmatter";
import { manifestName } from "../memdir/format-manifest";
import { MAX_MEMORY_FILES, scanMemoryDir, type ScannedMemory, type SkippedFile } from "../memdir/scan-memory-dir";
import { isAppError } from "../errors";
import { spokenWordsByTerm } from "./build-local-index";
import { OVER_LIMIT_NAMED, type DroppedMemory } from "./dropped-memory";
import { formatInjection, formatInjectionText } from "./format-injection";
import { formatModelManifestLine } from "./format-model-manifest";
import { maskSecretRanges } from "../secrets/mask-secret-ranges";
import { maskForDisplayRemembered, maskNameRemembered, maskSecrets, showModelName } from "./mask-secrets";
import type { ModelBreaker, ModelPass } from "./create-model-breaker";
import { modelFailureOf, type RecallModelSettings } from "./model";
import { toolSearchWords } from "./is-tool-in-use-reference";
import { rankMemoriesLocally, type RankedMemory } from "./rank-memories-locally";
import { toSurfacedKey } from "./surfaced-key";
import { validateSelection } from "./validate-selection";

/**
 * Memories already scanned elsewhere (the read model of a team project): every memory, newest
 * first, and how to read one file's text. Without it, `memoryDir` is scanned as Claude Code does.
 */
export type ScannedSource = {
  memories: readonly ScannedMemory[];
  skipped?: SkippedFile[];
  readText: (file: string) => Promise<string | null>;
  /** Why the staleness checks doubt a memory (one line each), for its injection; none when fresh. */
  readDoubts?: (file: string) => Promise<string[]>;
};

export type RecallOptions = {
  /** The private memory directory; its team/ folder and any other subfolder are scanned too (C5). */
  memoryDir: string;
  source?: ScannedSource;
  query: string;
  recentTools?: readonly string[];
  /** Files already shown in this conversation (R4): relative paths, absolute ones, or as an injection named them (see toSurfacedKey). */
  alreadySurfaced?: readonly string[];
  /** C8 skips recall for one-word prompts; a playground may want to try them anyway. */
  allowSingleWord?: boolean;
  /** Null or absent: the local ranker runs (no key configured). */
  model?: RecallModelSettings | null;
  /** A server's: whether this recall may wait on the model now (absent: it always may). */
  modelBreaker?: ModelBreaker;
  signal?: AbortSignal;
  now?: Date;
  /** How injection headers name the memory directory (default: memoryDir), e.g. the agent's own path. */
  displayDir?: string;
  /**
   * False leaves `manifest` out of the result. Masking every description for it is most of what
   * a local recall costs in a fresh process (`teammem recall` without --json, docs/benchmarks.md,
   * "The CLI"); a model call builds it anyway, it is what the model reads.
   */
  includeManifest?: boolean;
};

export type RecalledMemory = {
  file: string;
  mtime: string;
  /** A1: today, yesterday, n days ago. */
  age: string;
  type: MemoryType | null;
  description: string | null;
  /** Local ranker only: the query words that matched. */
  reason?: string;
  /** R7: exactly what an agent would be given. */
  injection: string;
};

export type RecallResult = {
  /** `none`: nothing was asked (see skipReason). */
  selector: "model" | "local" | "none";
  skipReason?: "single-word-query" | "no-memories";
  /**
   * Set when the model was configured but the local ranker answered; starts with the failure kind
   * (`timeout: …`), or with `model-paused` (the model failed recently and is skipped for a while)
   * or `model-busy` (enough recalls are already waiting on it).
   */
  fallbackReason?: string;
  latencyMs: number;
  /** S5: exactly what the model saw, or would see (names and descriptions with secrets masked); absent when not asked for. */
  manifest?: string;
  selected: RecalledMemory[];
  dropped: DroppedMemory[];
  /** S3: files the scan could not read. */
  skipped: SkippedFile[];
};

type Selection = { files: { path: string; reason?: string }[]; dropped: DroppedMemory[]; selector: "model" | "local"; fallbackReason?: string };

/**
 * R1-R7 on the server: scan private + team memory as Claude Code does, drop what was already
 * surfaced, ask the model (or the local ranker) for up to five, and return each with the text an
 * agent would receive. A failing model falls back to the local ranker and says why; a caller's
 * abort is thrown (as the signal's reason), never turned into a fallback.
 */
export async function recallMemories(options: RecallOptions): Promise<RecallResult> {
  // Not `performance.now()`: loading perf_hooks was ~2 ms of every `teammem recall`.
  const started = process.hrtime.bigint();
  const now = options.now ?? new Date();
  const recentTools = options.recentTools ?? [];
  options.signal?.throwIfAborted();

  const scan = options.source ? { memories: options.source.memories, skipped: options.source.skipped ?? [] } : await scanMemoryDir(options.memoryDir, { all: true });
  options.signal?.throwIfAborted();
  const surfaced = new Set((options.alreadySurfaced ?? []).map((file) => toSurfacedKey(options.memoryDir, file)));
  const newest = scan.memories.slice(0, MAX_MEMORY_FILES);
  const dropped: DroppedMemory[] = [
    ...newest.filter((memory) => surfaced.has(memory.path)).map((memory) => ({ file: memory.path, reason: "already-surfaced" as const })),
    ...scan.memories.slice(MAX_MEMORY_FILES, MAX_MEMORY_FILES + OVER_LIMIT_NAMED).map((memory) => ({ file: memory.path, reason: "over-limit" as const })),
  ];
  const candidates = newest.filter((memory) => !surfaced.has(memory.path));
  let manifest: string | undefined;
  const manifestOf = () => (manifest ??= candidates.map(formatModelManifestLine).join("\n"));
  const finish = (result: Omit<RecallResult, "latencyMs" | "manifest" | "skipped">): RecallResult => ({
    ...result,
    latencyMs: Math.round(Number(process.hrtime.bigint() - started) / 100_000) / 10,
    ...(options.includeManifest === false ? {} : { manifest: manifestOf() }),
    skipped: scan.skipped,
  });

  if (!options.allowSingleWord && isSingleWord(options.query)) return finish({ selector: "none", skipReason: "single-word-query", selected: [], dropped });
  if (candidates.length === 0) return finish({ selector: "none", skipReason: "no-memories", selected: [], dropped });

  const selection = await select(options, candidates, manifestOf, recentTools);
  const byPath = new Map(candidates.map((memory) => [memory.path, memory]));
  const selected: RecalledMemory[] = [];
  const chosen = selection.files.flatMap((choice) => {
    const memory = byPath.get(choice.path);
    return memory ? [{ choice, memory }] : [];
  });
  // Formatted together: a source can then read what it needs for all of them at once.
  const injections = await Promise.all(chosen.map(({ memory }) => tryFormatInjection(options, memory, now)));
  for (const [index, { choice, memory }] of chosen.entries()) {
    const injection = injections[index]!;
    if (injection === null) dropped.push({ file: memory.path, reason: "unreadable" });
    // No secret in an API response: the injection comes masked (formatInjectionText).
    else selected.push({ ...describe(memory, now), reason: choice.reason, injection });
  }
  return finish({ selector: selection.selector, fallbackReason: selection.fallbackReason, selected, dropped: [...dropped, ...selection.dropped] });
}

async function select(options: RecallOptions, candidates: ScannedMemory[], manifestOf: () => string, recentTools: readonly string[]): Promise<Selection> {
  const modelSelection = options.model ? await selectByModel(options, options.model, candidates, manifestOf, recentTools) : undefined;
  if (typeof modelSelection === "object") return modelSelection;
  const fallbackReason = modelSelection;
  // Ranked on the prompt's words without its secrets, as the model reads it masked: a password's
  // words chose memories and came back in the reasons ("matched: preconciliation").
  const query = withoutSecrets(options.query);
  const ranking = rankMemoriesLocally(candidates, query, recentTools);
  // The reason names a word as written: "stripe (tool in use)", not its stem "strip".
  const spoken = new Map([...spokenWordsByTerm(toolSearchWords(recentTools).join(" ")), ...spokenWordsByTerm(query)]);
  return {
    selector: "local",
    fallbackReason,
    files: ranking.ranked.map((entry) => ({ path: entry.memory.path, reason: localReason(entry, spoken) })),
    dropped: ranking.dropped,
  };
}

function withoutSecrets(query: string): string {
  return maskSecretRanges(query)
    .map((segment) => (segment.secret ? " " : segment.text))
    .join("");
}

/**
 * Why the local ranker chose a memory: the prompt's words as typed, then the tools in use it was
 * found through (R2: a known problem with a tool the agent is using; the reason was once an empty
 * "matched: " for a memory found through a tool alone).
 */
function localReason(entry: RankedMemory, spoken: ReadonlyMap<string, string>): string {
  const words = entry.matchedTerms.map((term) => spoken.get(term) ?? term);
  const tools = entry.matchedTools.map((tool) => `${spoken.get(tool) ?? tool} (tool in use)`);
  return `matched: ${[...words, ...tools].join(", ")}`;
}

/**
 * The model's selection, validated (R5), or why the local ranker answers instead: the model
 * failed, or the breaker keeps this recall from waiting on it (R6).
 */
async function selectByModel(options: RecallOptions, model: RecallModelSettings, candidates: ScannedMemory[], manifestOf: () => string, recentTools: readonly string[]): Promise<Selection | string> {
  // Loaded only when a model is asked: its answer schema (zod) and the SDK cost a CLI start-up
  // that ranks locally tens of milliseconds (docs/benchmarks.md, "The CLI").
  const { RECALL_MODEL_TIMEOUT_MS, selectWithModel } = await import("./select-with-model");
  const settings = { ...model, timeoutMs: model.timeoutMs ?? RECALL_MODEL_TIMEOUT_MS };
  const pass: ModelPass = options.modelBreaker?.enter(settings.timeoutMs) ?? { isAllowed: true, leave: () => {} };
  if (!pass.isAllowed) return pass.fallbackReason;
  let names: string[];
  try {
    names = await selectWithModel({ settings, query: maskSecrets(options.query), manifest: manifestOf(), recentTools: recentTools.map(maskNameRemembered), signal: options.signal });
    pass.leave("answered");
  } catch (error) {
    pass.leave(modelFailureOf(error) ?? "other");
    options.signal?.throwIfAborted();
    if (!isAppError(error)) throw error;
    return `${String(error.details.failure ?? "model-error")}: ${error.message} The local ranker answered instead.`;
  }
  // The model answers with names as the manifest shows them: masked, control characters escaped.
  const pathByName = new Map(candidates.map((memory) => [manifestName(maskNameRemembered(memory.path)), memory.path]));
  const validated = validateSelection(names, new Set(pathByName.keys()));
  // Every API answer masks secrets: a name the model made up may hold one (echoed from the prompt).
  const dropped = validated.dropped.map((drop) => ({ ...drop, file: showModelName(drop.file) }));
  return { selector: "model", files: validated.files.map((name) => ({ path: pathByName.get(name)! })), dropped };
}

/** C8: a prompt of one word (or none) gives too little to select on. */
export function isSingleWord(query: string): boolean {
  return query.trim().split(/\s+/).filter(Boolean).length <= 1;
}

function describe(memory: ScannedMemory, now: Date): Omit<RecalledMemory, "injection" | "reason"> {
  return { file: memory.path, mtime: memory.mtime.toISOString(), age: memoryAge(memory.mtime, now), type: memory.type, description: memory.description === null ? null : maskForDisplayRemembered(memory.description) };
}

async function tryFormatInjection(options: RecallOptions, memory: ScannedMemory, now: Date): Promise<string | null> {
  const displayDir = options.displayDir ?? options.memoryDir;
  try {
    if (options.source) {
      const [text, doubts] = await Promise.all([options.source.readText(memory.path), options.source.readDoubts?.(memory.path) ?? []]);
      return text === null ? null : formatInjectionText({ text, file: memory.path, mtime: memory.mtime, now, displayDir, doubts });
    }
    return formatInjection({ memoryDir: options.memoryDir, file: memory.path, mtime: memory.mtime, now, displayDir });
  } catch {
    // S3 spirit: a file that vanished or turned unreadable since the scan is reported, not thrown.
    return null;
  }
}
