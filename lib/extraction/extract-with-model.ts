import type Anthropic from "@anthropic-ai/sdk";
import * as z from "zod/mini";
import { AppError, isAppError } from "../errors";
import { MEMORY_TYPES } from "../memdir/frontmatter";
import { askModelTurn, type RecallModelSettings } from "../recall/model";
import { redactSecrets } from "../secrets/redact-secrets";
import type { ViewMessage } from "../transcripts/conversation-view";
import type { Evidence, ExtractionCandidate } from "./candidate-types";
import { EVIDENCE_CHARS } from "./excerpt";
import { ALLOWED_TOOL_NAMES, buildExtractionUserMessage, EXTRACTION_SYSTEM_PROMPT, EXTRACTION_TOOLS } from "./extraction-prompt";

/** X6: the hard cap; a sixth request is never sent. */
export const MAX_EXTRACTION_TURNS = 5;
const MAX_TOKENS = 4096;

export type MemoryLibrary = {
  /** The manifest line per team memory, as recall's selector sees it. */
  manifest: string;
  /** A team memory's text (secrets masked), or null when there is no such file. */
  readMemory: (file: string) => Promise<string | null>;
};

export type ModelExtractionOptions = {
  settings: RecallModelSettings;
  library: MemoryLibrary;
  /** Redacted, capped view messages after the cursor: nothing else of the transcript is sent. */
  messages: ViewMessage[];
  signal?: AbortSignal;
};

// zod's mini build, as everywhere the CLI loads (its full build is ~250 KB more to load at each start).
const Proposal = z.object({
  file: z.string().check(z.minLength(4), z.maxLength(200), z.regex(/^[\w./-]+\.md$/)),
  type: z.enum(MEMORY_TYPES),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.string().check(z.minLength(1), z.maxLength(400)),
  body: z.string().check(z.minLength(1), z.maxLength(20_000)),
  scope: z.enum(["team", "private"]),
  evidence: z.array(z.string().check(z.maxLength(100))).check(z.maxLength(20)),
});

/**
 * X6 over the Messages API: tools limited to listing and reading team memories and
 * propose_memory (the only write); at most five turns. Throws MODEL_UNAVAILABLE like recall's
 * model calls, so the caller can fall back to the rules.
 */
export async function extractWithModel(options: ModelExtractionOptions): Promise<ExtractionCandidate[]> {
  return proposeWithTools({
    settings: options.settings,
    library: options.library,
    system: EXTRACTION_SYSTEM_PROMPT,
    firstMessage: buildExtractionUserMessage(options.library.manifest, options.messages),
    sources: options.messages.map((message) => ({ uuid: message.uuid, role: message.kind, text: message.text })),
    requiredEvidence: { role: "user", missing: "its evidence quotes no message the user wrote in this session" },
    signal: options.signal,
  });
}

/** What a proposal may cite as evidence: a message (or a daily log) the model was shown, by id. */
export type EvidenceSource = { uuid: string; role: Evidence["role"]; text: string };

export type ProposeWithToolsOptions = {
  settings: RecallModelSettings;
  library: MemoryLibrary;
  system: string;
  /** Already redacted: nothing else reaches the model. */
  firstMessage: string;
  sources: EvidenceSource[];
  /**
   * A proposal must cite at least one source of this role (the user's words; a daily log), or it
   * has nothing a reviewer can check: it is kept back with `missing` as the reason.
   */
  requiredEvidence: { role: Evidence["role"]; missing: string };
  signal?: AbortSignal;
};

/** The read-then-propose tool loop shared by extraction and dream (T4), capped at five turns. */
export async function proposeWithTools(options: ProposeWithToolsOptions): Promise<ExtractionCandidate[]> {
  const conversation: Anthropic.MessageParam[] = [{ role: "user", content: options.firstMessage }];
  const candidates: ExtractionCandidate[] = [];
  for (let turn = 1; turn <= MAX_EXTRACTION_TURNS; turn++) {
    const reply = await askModelTurn(options.settings, { system: options.system, messages: conversation, tools: EXTRACTION_TOOLS, maxTokens: MAX_TOKENS, signal: options.signal }).catch((error: unknown) => {
      throw asExtractionFailure(error);
    });
    const calls = reply.content.filter((block): block is Anthropic.ToolUseBlock => block.type === "tool_use");
    if (calls.length === 0) break;
    conversation.push({ role: "assistant", content: reply.content as Anthropic.ContentBlockParam[] });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const call of calls) results.push({ type: "tool_result", tool_use_id: call.id, ...(await runTool(call, options, candidates)) });
    conversation.push({ role: "user", content: results });
  }
  return candidates;
}

/**
 * The model module words its failures for recall ("The recall model did not answer…"), but the
 * fallback reason a member reads here is about extraction's own model and timeout
 * (TEAMMEM_EXTRACTION_MODEL, TEAMMEM_EXTRACTION_TIMEOUT_MS).
 */
function asExtractionFailure(error: unknown): unknown {
  if (!isAppError(error) || error.code !== "MODEL_UNAVAILABLE") return error;
  return new AppError("MODEL_UNAVAILABLE", error.message.replace(/^The recall\b/, "The extraction"), { details: error.details, cause: error });
}

async function runTool(call: Anthropic.ToolUseBlock, options: ProposeWithToolsOptions, candidates: ExtractionCandidate[]): Promise<{ content: string; is_error?: boolean }> {
  if (!ALLOWED_TOOL_NAMES.has(call.name)) return { content: `Tool ${call.name} is not available here: only list_memories, read_memory and propose_memory.`, is_error: true };
  if (call.name === "list_memories") return { content: options.library.manifest || "(no team memories yet)" };
  if (call.name === "read_memory") {
    const file = typeof (call.input as { file?: unknown }).file === "string" ? (call.input as { file: string }).file : "";
    const text = await options.library.readMemory(file);
    return text === null ? { content: `No team memory ${file}.`, is_error: true } : { content: redactSecrets(text).text };
  }
  const parsed = Proposal.safeParse(call.input);
  if (!parsed.success) return { content: `propose_memory: ${parsed.error.issues[0]?.path.join(".") || "input"} is invalid.`, is_error: true };
  // One proposal per file: a model that repeats a call (in a turn, or on each turn) or revises
  // its proposal must not fill the review queue with copies; its latest word counts.
  const candidate = toCandidate(parsed.data, options.sources, options.requiredEvidence);
  const earlier = candidates.findIndex((proposed) => proposed.file === candidate.file);
  const isKeptBack = candidate.refusal !== undefined;
  if (earlier === -1) candidates.push(candidate);
  else if (!isKeptBack || candidates[earlier]!.refusal !== undefined) candidates[earlier] = candidate;
  if (isKeptBack) return { content: `propose_memory: not recorded: ${candidate.refusal}. Give the ids (in brackets) of what shows it.`, is_error: true };
  return { content: earlier === -1 ? "Recorded for review." : `Recorded for review, in place of your earlier proposal of ${candidate.file} (one proposal per file).` };
}

function toCandidate(proposal: z.infer<typeof Proposal>, sources: EvidenceSource[], required: ProposeWithToolsOptions["requiredEvidence"]): ExtractionCandidate {
  const byUuid = new Map(sources.map((source) => [source.uuid, source]));
  const evidence: Evidence[] = proposal.evidence
    .map((uuid) => byUuid.get(uuid))
    .filter((source): source is EvidenceSource => source !== undefined)
    .map((source) => ({ uuid: source.uuid, role: source.role, excerpt: source.text.slice(0, EVIDENCE_CHARS) }))
    // The user's words first: they are what a reviewer trusts or rejects.
    .sort((left, right) => Number(right.role === "user") - Number(left.role === "user"));
  const redact = (text: string) => redactSecrets(text).text;
  // T2: a user memory is never team, whatever the model says.
  const scope = proposal.type === "user" ? "private" : proposal.scope;
  const candidate: ExtractionCandidate = { file: proposal.file, type: proposal.type, name: redact(proposal.name), description: redact(proposal.description), body: redact(proposal.body), scope, evidence, confidence: "medium" };
  // Evidence is what was shown, quoted by id: an empty list or made-up ids leave nothing to quote.
  return evidence.some((item) => item.role === required.role) ? candidate : { ...candidate, refusal: required.missing };
}
