import { serializeMemory } from "../memdir/frontmatter";
import type { ExtractionCandidate } from "./candidate-types";

/** The memory file a candidate proposes (F1: name, description, type in the frontmatter). */
export function formatCandidateFile(candidate: ExtractionCandidate): string {
  return serializeMemory({ name: candidate.name, description: candidate.description, type: candidate.type }, candidate.body.endsWith("\n") ? candidate.body : `${candidate.body}\n`);
}
