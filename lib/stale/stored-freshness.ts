import { z } from "zod";
import { parseJsonOrNull } from "../parse-json";
import type { Assessment } from "./assess-freshness";
import { isFreshnessState, isStaleSignalKind, type FreshnessState, type StaleSignal } from "./stale-signal";

/** The freshness columns of a read-model row (StoreMemory.fresh*). */
export type StoredFreshness = { freshState: FreshnessState; freshScore: number; freshReasons: string; freshSignals: string };

/** What freshSignals holds: the verdict's details, and the blob it was computed for. */
export type FreshnessDetails = { blob: string | null; signals: StaleSignal[]; notChecked: string[]; notes: string[] };

export function toStoredFreshness(assessment: Assessment, blob: string, isDuplicateCheckMissing: boolean): StoredFreshness {
  const kinds = [...new Set(assessment.signals.map((signal) => signal.kind))];
  const notChecked = isDuplicateCheckMissing ? [...assessment.notChecked, "not checked: duplicates (the store could not be read)"] : assessment.notChecked;
  return {
    freshState: assessment.state,
    freshScore: assessment.score,
    freshReasons: kinds.length ? `|${kinds.join("|")}|` : "",
    freshSignals: JSON.stringify({ blob, signals: assessment.signals, notChecked, notes: assessment.notes } satisfies FreshnessDetails),
  };
}

const Details = z.object({
  blob: z.string().nullable().optional(),
  signals: z.array(z.object({ kind: z.string(), message: z.string(), evidence: z.record(z.string(), z.unknown()).optional() })).optional(),
  notChecked: z.array(z.string()).optional(),
  notes: z.array(z.string()).optional(),
});

/** The details of a row; a damaged or empty value reads as nothing known. */
export function parseFreshnessDetails(text: string): FreshnessDetails {
  const parsed = Details.safeParse(parseJsonOrNull(text));
  if (!parsed.success) return { blob: null, signals: [], notChecked: [], notes: [] };
  return {
    blob: parsed.data.blob ?? null,
    signals: (parsed.data.signals ?? []).filter((signal): signal is StaleSignal => isStaleSignalKind(signal.kind)),
    notChecked: parsed.data.notChecked ?? [],
    notes: parsed.data.notes ?? [],
  };
}

export function readFreshnessState(value: string | null): FreshnessState | null {
  return isFreshnessState(value) ? value : null;
}
