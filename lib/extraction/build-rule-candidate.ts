import type { MemoryType } from "../memdir/frontmatter";
import { redactSecrets } from "../secrets/redact-secrets";
import type { TranscriptMessage } from "../transcripts/transcript-types";
import type { CandidateScope, Evidence, ExtractionCandidate } from "./candidate-types";
import type { FoundInstruction } from "./find-explicit-instructions";

// T2: words that make a rule a project convention rather than one person's taste.
const TEAM_MARKERS = /\b(?:we|our|us|the team|everyone|this (?:repo|project|codebase|service)|in this repo|tests?|ci|deploy(?:s|ment)?|migrations?|the build|pull requests?|prs?|commits?|branch(?:es)?|releases?|staging|production|prod)\b/i;
const FIRST_PERSON = /\b(?:i|i'm|i've|me|my|myself)\b/i;

/** Whether a file name already belongs to another candidate of the same run. */
export type IsFileTaken = (file: string) => boolean;

/** One rule-based candidate from a user's sentence, with the sentence (and its context) as evidence. */
export function buildRuleCandidate(found: FoundInstruction, message: TranscriptMessage, context: Evidence[], isFileTaken: IsFileTaken): ExtractionCandidate {
  const statement = cleanStatement(found);
  const type = typeOf(found, statement);
  const scope: CandidateScope = type === "user" ? "private" : type === "feedback" ? (TEAM_MARKERS.test(statement) ? "team" : "private") : "team";
  const name = shorten(statement, 70);
  const why = found.kind === "correction" ? "The user corrected a failed tool call with this." : "The user said so explicitly in a session.";
  return {
    file: fileNameOf(type, statement, isFileTaken),
    type,
    name,
    description: shorten(statement, 150),
    body: `${statement}\n\n**Why:** ${why}\n**How to apply:** ${type === "feedback" ? "whenever this kind of work comes up again" : "when working on this project"}.\n`,
    scope,
    evidence: [{ uuid: message.uuid, role: "user", excerpt: shorten(found.sentence, 600) }, ...context],
    confidence: "low",
  };
}

function typeOf(found: FoundInstruction, statement: string): MemoryType {
  // "Remember that the staging DB resets nightly" states a fact; "remember to …" is a habit.
  if (found.kind === "remember" && !/^(?:to\b|always|never|don'?t|do not)/i.test(statement.replace(/^[A-Z]/, (letter) => letter.toLowerCase()))) {
    return FIRST_PERSON.test(statement) ? "user" : "project";
  }
  return "feedback";
}

function cleanStatement(found: FoundInstruction): string {
  const stripped = found.kind === "remember" ? found.sentence.replace(/^(?:please\s+|also\s+|and\s+|btw,?\s+)?(?:remember|keep in mind|note for (?:the )?future|for future reference)\b(?:\s*[:,]|\s+that)?\s*/i, "") : found.sentence;
  const text = stripped.replace(/^(?:no|nope|actually)[,!.]?\s+/i, "").trim();
  // A memory must hold no credential (T3), even when the user dictated one.
  return redactSecrets(text.charAt(0).toUpperCase() + text.slice(1)).text;
}

function shorten(text: string, maxChars: number): string {
  const single = text.replace(/\s+/g, " ").trim();
  return single.length > maxChars ? `${single.slice(0, maxChars - 1).trimEnd()}…` : single;
}

const SLUG_WORDS = 6;
const MAX_SLUG_WORDS = 12;

/**
 * Six words name most rules. Two rules that start alike ("Never commit directly to the release
 * branch without…" / "…on Fridays") must not share a name, or the second is lost: more words
 * until they differ, then a number.
 */
function fileNameOf(type: MemoryType, statement: string, isFileTaken: IsFileTaken): string {
  const words = statement.toLowerCase().replace(/[^a-z0-9\s]/g, " ").split(/\s+/).filter((word) => word.length > 1);
  const nameOf = (slug: string) => `${type}_${slug || "instruction"}.md`;
  for (let count = SLUG_WORDS; count <= Math.max(SLUG_WORDS, Math.min(words.length, MAX_SLUG_WORDS)); count++) {
    const file = nameOf(words.slice(0, count).join("_"));
    if (!isFileTaken(file)) return file;
  }
  const base = words.slice(0, MAX_SLUG_WORDS).join("_") || "instruction";
  for (let number = 2; ; number++) {
    const file = nameOf(`${base}_${number}`);
    if (!isFileTaken(file)) return file;
  }
}
