import type { MemoryType } from "../memdir/frontmatter";
import type { MessageKind } from "../transcripts/transcript-types";

/** A quoted message (or, for dream, a daily log file) that led to a candidate; the user's words come first in the list. */
export type Evidence = { uuid: string; role: MessageKind | "daily-log"; excerpt: string };

/** T2: where the memory belongs (a team memory, or the member's own). */
export type CandidateScope = "team" | "private";

/** One memory an extractor proposes: the fields of `teammem extract --json` (docs/memory-format.md X8). */
export type ExtractionCandidate = {
  /** The memory file, relative to the project folder (e.g. feedback_use_pnpm.md). */
  file: string;
  type: MemoryType;
  name: string;
  description: string;
  body: string;
  scope: CandidateScope;
  evidence: Evidence[];
  /** Rules find explicit words only: their candidates are always "low" (a reviewer decides). */
  confidence: "low" | "medium";
  /** Why it is not proposed, when it is not: a model candidate that quotes nothing it was shown. */
  refusal?: string;
};

export type ExtractionSelector = "model" | "rules";

export type ExtractionResult = {
  selector: ExtractionSelector;
  /** The uuid of the last message processed; the next run starts after it (C10). */
  cursor: string | null;
  candidates: ExtractionCandidate[];
  /** Why the model was not used, when it was not (no key, a 500, a timeout, …). */
  fallbackReason?: string;
};
