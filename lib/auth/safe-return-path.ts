// Stands for the dashboard's own origin: only whether `next` stays on it matters, not which host
// serves the dashboard (.invalid is reserved, RFC 2606, so no real site can match it).
const DASHBOARD_ORIGIN = "http://dashboard.invalid";

// Browsers read "\" as "/" and drop tabs and newlines from a URL before resolving it, so
// "/\evil.example" and "/<TAB>/evil.example" both become "//evil.example", another site.
const AMBIGUOUS_CHARACTER = /[\\\s\p{Cc}]/u;

/**
 * Where to send a user after sign-in: `next` when it is a path on the dashboard itself, else "/".
 * Anything that would leave the dashboard's origin (another host, a scheme, a protocol-relative
 * or backslash form) is refused rather than repaired.
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  if (AMBIGUOUS_CHARACTER.test(next)) return "/";
  if (!URL.canParse(next, DASHBOARD_ORIGIN)) return "/";
  return new URL(next, DASHBOARD_ORIGIN).origin === DASHBOARD_ORIGIN ? next : "/";
}
