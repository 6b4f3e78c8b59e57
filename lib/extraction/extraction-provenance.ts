import type { ExtractionCandidate, ExtractionSelector } from "./candidate-types";

/** Evidence kept with a proposal: a few quotes, so provenance stays well under its 16 KB cap. */
const MAX_EVIDENCE_ITEMS = 4;

/**
 * What an extraction proposal records of where it came from (docs/memory-format.md X9): the
 * session, the selector, and the quotes that led to it, the user's first. The review page reads
 * these keys.
 */
export type ExtractionProvenance = {
  kind: "extraction";
  session: string;
  selector: ExtractionSelector;
  confidence: ExtractionCandidate["confidence"];
  /** The cursor the run started after (null: the session's start) and where it ended. */
  fromCursor: string | null;
  toCursor: string | null;
  evidence: ExtractionCandidate["evidence"];
  /** Whether the member shared the redacted excerpt, so the conversation view can be opened. */
  isExcerptShared: boolean;
};

export function buildExtractionProvenance(candidate: ExtractionCandidate, run: Omit<ExtractionProvenance, "kind" | "confidence" | "evidence">): ExtractionProvenance {
  return { kind: "extraction", ...run, confidence: candidate.confidence, evidence: candidate.evidence.slice(0, MAX_EVIDENCE_ITEMS) };
}
