/**
 * The one error type teammem raises on purpose. `message` is always safe to show a user (no
 * secret, no raw library text) and says what to do; `code` is a closed set so the app can map it
 * to an HTTP status and the CLI to an exit code in one place each.
 */
export const ERROR_CODES = [
  "INVALID_INPUT",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "RATE_LIMITED",
  "INVALID_MEMORY",
  "CONFIG_INVALID",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "SECRET_FOUND",
  "STORE_UNAVAILABLE",
  "DATABASE_UNAVAILABLE",
  "MODEL_UNAVAILABLE",
  "SERVER_UNAVAILABLE",
  "SERVER_BUSY",
  "DATA_DIR_UNAVAILABLE",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type AppErrorOptions = {
  /** Extra facts safe to show (e.g. which variable or field was wrong). */
  details?: Record<string, unknown>;
  cause?: unknown;
};

// Every copy of this module (Next.js bundles one per layer, lib/process-wide.ts) marks its errors
// the same way, so an AppError raised by one copy and caught by another is still recognised.
const APP_ERROR_BRAND = Symbol.for("teammem.AppError");

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly [APP_ERROR_BRAND] = true;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isAppError(error: unknown): error is AppError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[APP_ERROR_BRAND] === true;
}
