import { z } from "zod";
import { parseJsonOrNull } from "../parse-json";
import type { CodeCheck } from "./check-code-citations";
import type { DatedClaim } from "./find-dated-claims";
import type { StaleSignal } from "./stale-signal";

/**
 * What is cached per (memory blob, code commit): everything about one file version that does not
 * change with the clock. `code` is null when no code repository was checked.
 */
export type CheckResult = { code: CodeCheck | null; claims: DatedClaim[]; citationCount: number; isTruncated: boolean };

/**
 * Moved on whenever a check's meaning changes (which lines a claim names, which header a memory
 * has): a row saved by an older check no longer parses, so that file is checked again once.
 * 2: description and type from the first 30 lines only; claims name the file's own line.
 * 3: a deadline is the date its words govern (not another date on its line, not one in a URL).
 * 4: host names and product names in backticks are no symbols (no `missing-symbol` for them).
 * 5: a changed date ("was X, now Y") and a window without spaces ("X–Y") are judged by their end;
 *    past tenses, prepositions not right before the date and a window's start alone are no claims;
 *    a path the code repository's .gitignore names is a note, not missing-path.
 */
export const CHECK_RESULT_VERSION = 5;

const Signal = z.object({ kind: z.string(), message: z.string(), evidence: z.record(z.string(), z.unknown()).optional() });
const StoredCheckResult = z.object({
  version: z.literal(CHECK_RESULT_VERSION),
  code: z.object({ signals: z.array(Signal), notes: z.array(z.string()) }).nullable(),
  claims: z.array(z.object({ kind: z.enum(["deadline", "relative"]), date: z.string(), phrase: z.string(), line: z.number() })),
  citationCount: z.number(),
  isTruncated: z.boolean(),
});

/** A result as the cache keeps it. */
export function serializeCheckResult(result: CheckResult): string {
  return JSON.stringify({ version: CHECK_RESULT_VERSION, ...result });
}

/** A cached result, or null when the row is damaged or from an older check (then it is simply checked again). */
export function parseCheckResult(text: string): CheckResult | null {
  const parsed = StoredCheckResult.safeParse(parseJsonOrNull(text));
  return parsed.success ? { claims: parsed.data.claims, citationCount: parsed.data.citationCount, isTruncated: parsed.data.isTruncated, code: parsed.data.code ? { notes: parsed.data.code.notes, signals: parsed.data.code.signals as StaleSignal[] } : null } : null;
}
