import { redactSecrets } from "../secrets/redact-secrets";
import type { TranscriptMessage } from "../transcripts/transcript-types";
import { buildRuleCandidate } from "./build-rule-candidate";
import type { Evidence, ExtractionCandidate } from "./candidate-types";
import { excerptOf } from "./excerpt";
import { findExplicitInstructions } from "./find-explicit-instructions";

export type RuleExtractor = { add: (message: TranscriptMessage) => void; candidates: () => ExtractionCandidate[] };

/**
 * X8: the fallback extractor, fed one message at a time so a long transcript is never held.
 * Only words a person typed count (`user` messages, not `meta`, compact summaries, tool results
 * or sub-agent lines); assistant text is context, never a source. A correction counts only
 * right after a tool call that failed.
 */
export function createRuleExtractor(): RuleExtractor {
  const found = new Map<string, ExtractionCandidate>();
  // The same instruction said twice is one candidate; two different ones always get two names.
  const bodies = new Set<string>();
  let previous: TranscriptMessage | null = null;
  return {
    add(message) {
      if (message.isSidechain) return;
      if (message.kind === "user") {
        const afterFailedTool = previous?.toolCalls.some((call) => call.result?.isError === true) ?? false;
        const context: Evidence[] = previous?.kind === "assistant" ? [contextOf(previous)] : [];
        // Redacted whole before it is cut into sentences: a token a line wrap cut is only
        // recognisable with both of its lines, and a sentence would hold its first piece alone.
        const redacted = { ...message, text: redactSecrets(message.text).text };
        for (const instruction of findExplicitInstructions(redacted.text, afterFailedTool)) {
          const candidate = buildRuleCandidate(instruction, redacted, context, (file) => found.has(file));
          if (bodies.has(candidate.body)) continue;
          bodies.add(candidate.body);
          found.set(candidate.file, candidate);
        }
      }
      if (message.kind === "user" || message.kind === "assistant") previous = message;
    },
    candidates: () => [...found.values()].map((candidate) => ({ ...candidate, evidence: candidate.evidence.map((item) => ({ ...item, excerpt: excerptOf(item.excerpt) })) })),
  };
}

export function extractWithRules(messages: Iterable<TranscriptMessage>): ExtractionCandidate[] {
  const extractor = createRuleExtractor();
  for (const message of messages) extractor.add(message);
  return extractor.candidates();
}

function contextOf(message: TranscriptMessage): Evidence {
  const failed = message.toolCalls.filter((call) => call.result?.isError);
  const toolLine = failed.map((call) => `${call.name} failed: ${call.result?.text ?? ""}`).join("\n");
  return { uuid: message.uuid, role: "assistant", excerpt: excerptOf([message.text, toolLine].filter(Boolean).join("\n"), 300) };
}
