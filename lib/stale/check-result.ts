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

const Signal = z.object({ kind: z.string(), message: z.string(), evidence: z.record(z.string(), z.unknown()).optional() });
const StoredCheckResult = z.object({
  code: z.object({ signals: z.array(Signal), notes: z.array(z.string()) }).nullable(),
  claims: z.array(z.object({ kind: z.enum(["deadline", "relative"]), date: z.string(), phrase: z.string(), line: z.number() })),
  citationCount: z.number(),
  isTruncated: z.boolean(),
});

/** A cached result, or null when the row is damaged (then it is simply checked again). */
export function parseCheckResult(text: string): CheckResult | null {
  const parsed = StoredCheckResult.safeParse(parseJsonOrNull(text));
  return parsed.success ? { ...parsed.data, code: parsed.data.code ? { notes: parsed.data.code.notes, signals: parsed.data.code.signals as StaleSignal[] } : null } : null;
}
