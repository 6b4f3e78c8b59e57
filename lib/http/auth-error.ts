import { AppError, type ErrorCode } from "../errors";

// better-auth answers its refusals as `{message, code}` with its own codes; teammem's clients
// read `{error: {code, message}}` with the closed set of lib/errors.ts (README "API").
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "INVALID_INPUT",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "INVALID_INPUT",
  429: "RATE_LIMITED",
};

const CROSS_SITE = "Cross-site request refused: sign in and change your password on the teammem dashboard.";

// What the open endpoints (sign-in, sign-out, session, password change) refuse, in teammem's
// words: what went wrong and what to do, rather than the library's "Invalid password".
const MESSAGE_BY_AUTH_CODE: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Wrong email or password.",
  INVALID_PASSWORD: "The current password is wrong.",
  PASSWORD_TOO_SHORT: "The new password is too short: 12 characters at least.",
  PASSWORD_TOO_LONG: "The new password is too long: 256 characters at most.",
  INVALID_ORIGIN: CROSS_SITE,
  MISSING_OR_NULL_ORIGIN: CROSS_SITE,
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: CROSS_SITE,
  INVALID_CALLBACK_URL: "callbackURL: must be a path on this teammem server.",
  UNAUTHORIZED: "Sign in first.",
  SESSION_EXPIRED: "Your session has expired: sign in again.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "This account has no password yet: an admin resets it with `npx teammem users reset-password`.",
};

const MESSAGE_BY_CODE: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: "Sign in first.",
  FORBIDDEN: "The sign-in service refused this request.",
  NOT_FOUND: "There is no such API endpoint; README.md lists them.",
  INTERNAL: "Something went wrong on the server; the error was logged.",
};

/**
 * better-auth's error answer (its status and parsed body) as the AppError teammem answers with
 * instead. A message teammem has no words for is kept when it is one short line (better-auth's
 * are fixed texts or name a body field); anything else becomes the code's generic message.
 */
export function toAuthAppError(status: number, body: unknown): AppError {
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL" : "INVALID_INPUT");
  const { code: authCode, message } = (typeof body === "object" && body !== null ? body : {}) as { code?: unknown; message?: unknown };
  const known = typeof authCode === "string" ? MESSAGE_BY_AUTH_CODE[authCode] : undefined;
  // Our own refusal raised inside better-auth's hooks (the sign-in limit) already says what to do.
  const isOneLine = typeof message === "string" && message.trim() !== "" && message.length <= 200 && !/[\r\n]/.test(message);
  const shown = known ?? (code !== "INTERNAL" && isOneLine ? withFullStop(message as string) : (MESSAGE_BY_CODE[code] ?? "The sign-in service refused this request."));
  return new AppError(code, shown);
}

function withFullStop(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}
