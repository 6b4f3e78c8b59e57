import { isDatabaseUnreachable } from "@/lib/db/is-database-unreachable";
import { isAppError, type ErrorCode } from "@/lib/errors";
import { log } from "@/lib/log";
import { maskSecretsInQuotedNames } from "@/lib/secrets/mask-secret-ranges";

/** The one table from error code to HTTP status. */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INVALID_MEMORY: 422,
  CONFIG_INVALID: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  SECRET_FOUND: 422,
  STORE_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
  MODEL_UNAVAILABLE: 503,
  SERVER_UNAVAILABLE: 503,
  SERVER_BUSY: 503,
  DATA_DIR_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export type ShownError = { code: ErrorCode; message: string; status: number };

const DATABASE_UNREACHABLE_MESSAGE =
  "The database could not be reached while this request ran: try again shortly, and reload to see what it did (a change may have landed). If it goes on, check DATABASE_URL and run `npx teammem doctor`.";

/** What a user may see of an error: AppErrors as they are, anything else as a generic 500. */
export function toShownError(error: unknown, context: string): ShownError {
  // Messages may quote input (a field, a name, an id): a secret in it is masked like everywhere else.
  if (isAppError(error)) return { code: error.code, message: maskSecretsInQuotedNames(error.message), status: STATUS_BY_CODE[error.code] };
  if (isDatabaseUnreachable(error)) {
    log("warn", "database_unreachable", { context, name: (error as Error)?.name ?? "unknown" });
    return { code: "DATABASE_UNAVAILABLE", message: DATABASE_UNREACHABLE_MESSAGE, status: STATUS_BY_CODE.DATABASE_UNAVAILABLE };
  }
  log("error", "unexpected_error", { context, name: (error as Error)?.name ?? "unknown", stack: (error as Error)?.stack?.split("\n").slice(0, 6).join(" | ") });
  return { code: "INTERNAL", message: "Something went wrong on the server; the error was logged.", status: 500 };
}

/**
 * The JSON answer for an error. A request whose client already went away (closed the
 * connection, gave up waiting) is not a server error: it is logged as `client_gone` and answered
 * with an empty 499 that nobody reads.
 */
export function errorResponse(error: unknown, context: string, request?: Request): Response {
  if (request?.signal.aborted) {
    log("info", "client_gone", { context });
    return new Response(null, { status: 499 });
  }
  const shown = toShownError(error, context);
  const retryAfterSeconds = isAppError(error) ? error.details.retryAfterSeconds : undefined;
  const headers: Record<string, string> = typeof retryAfterSeconds === "number" ? { "retry-after": String(retryAfterSeconds), "cache-control": "no-store" } : {};
  return Response.json({ error: { code: shown.code, message: shown.message } }, { status: shown.status, headers });
}

/** A JSON response that is never cached: every API answer depends on who asked. */
export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

// A few: one per project at its current commit is what repeats.
const ENCODED_TEXTS_KEPT = 16;
const encodedTexts = new Map<string, Uint8Array>();
const CLOSING_BRACE = Buffer.from("}");

/**
 * `json({ ...body, [key]: text })` for an answer carrying one large text that repeats from
 * request to request: the recall manifest (~46 KB at 200 memories) is the same until the store
 * changes, and escaping and encoding it was a tenth of a recall's time on the server. The text is
 * turned into JSON bytes once; each answer joins them to its own small part.
 */
export function jsonWithText(body: Record<string, unknown>, key: string, text: string, status = 200): Response {
  // The key goes last, with a placeholder whose text is cut off and replaced by the bytes.
  const last: Record<string, unknown> = { ...body };
  delete last[key];
  last[key] = null;
  const head = JSON.stringify(last).slice(0, -"null}".length);
  const bytes = Buffer.concat([Buffer.from(head), encodedJsonText(text), CLOSING_BRACE]);
  return new Response(bytes, { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

function encodedJsonText(text: string): Uint8Array {
  let bytes = encodedTexts.get(text);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(text));
    encodedTexts.set(text, bytes);
    if (encodedTexts.size > ENCODED_TEXTS_KEPT) encodedTexts.delete(encodedTexts.keys().next().value ?? "");
  }
  return bytes;
}
