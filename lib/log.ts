import type { Config } from "./config";
import { maskSecretsDeep } from "./secrets/mask-secret-ranges";

type Level = Config["logLevel"];
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

// Log lines never carry request bodies or memory text; these patterns catch what could still slip
// in through a URL or an error message (a password in a connection string, a bearer token).
const REDACTIONS: [RegExp, string][] = [
  [/([a-z][a-z0-9+.-]*:\/\/)[^@/\s]*@/gi, "$1***@"],
  [/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, "$1***"],
  [/\b(sk-ant-|sk-|ghp_|gho_|github_pat_|xox[abprs]-)[A-Za-z0-9_-]{6,}/g, "$1***"],
];

export function redactForLog(text: string): string {
  return REDACTIONS.reduce((current, [pattern, replacement]) => current.replace(pattern, replacement), text);
}

let threshold: Level = "info";

export function setLogLevel(level: Level): void {
  threshold = level;
}

/**
 * One structured line per event on stderr, redacted: every string field is run through the
 * secret scanner (a credential becomes `[REDACTED:<kind> <preview>]`, as on pages and in API
 * answers), then the patterns above catch URL passwords and bearer tokens.
 */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < ORDER[threshold]) return;
  const at = new Date().toISOString();
  let line: string;
  try {
    line = JSON.stringify({ at, level, event, ...(maskSecretsDeep(fields) as Record<string, unknown>) });
  } catch {
    // A circular or bigint field must not turn a log line into plain text or a crash.
    line = JSON.stringify({ at, level, event, fields: "(could not be serialised)" });
  }
  process.stderr.write(redactForLog(line) + "\n");
}
