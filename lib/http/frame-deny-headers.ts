/**
 * No page or answer may be framed by another site: a framed /review/<id> let a hostile page (a
 * same-site one gets the session cookie) make a lead click Approve. Both headers, for browsers
 * that know only one of them. Sent by Next.js on every path (next.config.ts) and by the recall
 * route served in front of it (serve-web-handler.ts), so every response carries them.
 */
export const FRAME_DENY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
] as const;
