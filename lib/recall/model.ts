import type Anthropic from "@anthropic-ai/sdk";
import { AppError, isAppError } from "../errors";

// The SDK loads on the first model call, not with this module: importing it costs ~0.3 s of
// start-up, and recall without a key (the CLI, tests, the local ranker) never calls it.
type AnthropicSdk = typeof import("@anthropic-ai/sdk");

/** How recall reaches a model. Built from Config by the caller; nothing here reads the environment. */
export type RecallModelSettings = {
  apiKey: string;
  /** Null means Anthropic's own API. Given explicitly so the SDK never falls back to the environment. */
  baseUrl: string | null;
  model: string;
  /** Deadline for the whole call, retries included. */
  timeoutMs?: number;
  maxRetries?: number;
};

export type JsonRequest = {
  system: string;
  userMessage: string;
  schema: Record<string, unknown>;
  maxTokens: number;
  signal?: AbortSignal;
};

const MODEL_FAILURES = ["timeout", "aborted", "auth", "rate-limited", "http-error", "connection", "invalid-response", "malformed-answer"] as const;

/** Why a model call gave no usable answer; the fallback reason starts with it. */
export type ModelFailure = (typeof MODEL_FAILURES)[number];

/** The failure kind of an error thrown by this module; null for any other error. */
export function modelFailureOf(error: unknown): ModelFailure | null {
  if (!isAppError(error) || error.code !== "MODEL_UNAVAILABLE") return null;
  return MODEL_FAILURES.find((kind) => kind === error.details.failure) ?? null;
}

const ANTHROPIC_API = "https://api.anthropic.com";
// R6: recall is a prefetch that must not hold an agent up; a slow model is worth less than the local ranker.
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RETRIES = 1;

/**
 * One Messages API call with structured JSON output (R3); returns the parsed JSON. Every failure
 * becomes AppError MODEL_UNAVAILABLE with `details.failure` and a message safe to show (never the
 * SDK's or the server's raw text, which may echo the request).
 */
export async function askModelForJson(settings: RecallModelSettings, request: JsonRequest): Promise<unknown> {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  const sdk = await import("@anthropic-ai/sdk");
  const client = new sdk.default({ apiKey: settings.apiKey, baseURL: settings.baseUrl ?? ANTHROPIC_API });
  let message: unknown;
  try {
    message = await client.messages.create(
      {
        model: settings.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: [{ role: "user", content: request.userMessage }],
        output_config: { format: { type: "json_schema", schema: request.schema } },
      },
      { signal, timeout: timeoutMs, maxRetries: settings.maxRetries ?? DEFAULT_MAX_RETRIES },
    );
  } catch (error) {
    throw translateError(sdk, error, { timeoutMs, isPastDeadline: deadline.aborted });
  }
  return parseAnswer(message);
}

export type ToolTurnRequest = {
  system: string;
  messages: Anthropic.MessageParam[];
  tools: Anthropic.Tool[];
  maxTokens: number;
  signal?: AbortSignal;
};

/**
 * One turn of a tool-using conversation (extraction, X6): the model's reply as the SDK gives it.
 * The caller runs the tools and decides whether there is a next turn; failures are translated
 * like askModelForJson's.
 */
export async function askModelTurn(settings: RecallModelSettings, request: ToolTurnRequest): Promise<Anthropic.Message> {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  const sdk = await import("@anthropic-ai/sdk");
  const client = new sdk.default({ apiKey: settings.apiKey, baseURL: settings.baseUrl ?? ANTHROPIC_API });
  let message: unknown;
  try {
    message = await client.messages.create(
      { model: settings.model, max_tokens: request.maxTokens, system: request.system, messages: request.messages, tools: request.tools },
      { signal, timeout: timeoutMs, maxRetries: settings.maxRetries ?? DEFAULT_MAX_RETRIES },
    );
  } catch (error) {
    throw translateError(sdk, error, { timeoutMs, isPastDeadline: deadline.aborted });
  }
  return asMessageOrThrow(message);
}

/**
 * The SDK returns whatever an HTTP 200 held, unchecked: `{}`, `null`, or the text of an HTML
 * page (a proxy, a captive portal, a wrong ANTHROPIC_BASE_URL). That is the endpoint failing, not
 * one bad answer, so it counts against the model like an HTTP error (R6: recall pauses it).
 */
function asMessageOrThrow(message: unknown): Anthropic.Message {
  const content: unknown = typeof message === "object" && message !== null && "content" in message ? message.content : undefined;
  const isMessage = Array.isArray(content) && content.every((block: unknown) => typeof block === "object" && block !== null && "type" in block);
  if (!isMessage) throw failure("invalid-response", "The model endpoint answered HTTP 200 with something that is not a Messages API message; check ANTHROPIC_BASE_URL.");
  return message as Anthropic.Message;
}

function parseAnswer(answer: unknown): unknown {
  const message = asMessageOrThrow(answer);
  const block = message.content.find((candidate) => candidate.type === "text");
  if (!block || block.type !== "text" || typeof block.text !== "string" || message.stop_reason === "refusal") {
    throw failure("malformed-answer", "The recall model gave no JSON answer.");
  }
  try {
    return JSON.parse(block.text);
  } catch (error) {
    // A cut-off answer (stop_reason max_tokens) lands here too.
    throw failure("malformed-answer", "The recall model's answer was not valid JSON.", error);
  }
}

function translateError(sdk: AnthropicSdk, error: unknown, context: { timeoutMs: number; isPastDeadline: boolean }): AppError {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
  if (error instanceof APIConnectionTimeoutError || (error instanceof APIUserAbortError && context.isPastDeadline)) {
    return failure("timeout", `The recall model did not answer within ${context.timeoutMs} ms.`, error);
  }
  if (error instanceof APIUserAbortError) return failure("aborted", "The recall was cancelled.", error);
  if (error instanceof APIConnectionError) return failure("connection", "The recall model could not be reached.", error);
  if (error instanceof APIError && typeof error.status === "number") {
    if (error.status === 401 || error.status === 403) {
      return failure("auth", `The model API refused the configured key (HTTP ${error.status}).`, error);
    }
    if (error.status === 429) return failure("rate-limited", "The model API is rate limiting requests (HTTP 429).", error);
    return failure("http-error", `The model API answered HTTP ${error.status}.`, error);
  }
  return failure("connection", "The recall model call failed.", error);
}

function failure(kind: ModelFailure, message: string, cause?: unknown): AppError {
  return new AppError("MODEL_UNAVAILABLE", message, { details: { failure: kind }, cause });
}
