import type { TranscriptMessage } from "../transcripts/transcript-types";
import { buildRuleCandidate } from "./build-rule-candidate";
import type { Evidence, ExtractionCandidate } from "./candidate-types";
import { excerptOf } from "./excerpt";
import { findExplicitInstructions } from "./find-explicit-instructions";

/**
 * X8: the fallback extractor. Only words a person typed count (`user` messages, not `meta`,
 * compact summaries, tool results or sub-agent lines); assistant text is context, never a
 * source. A correction counts only right after a tool call that failed.
 */
export function extractWithRules(messages: Iterable<TranscriptMessage>): ExtractionCandidate[] {
  const candidates = new Map<string, ExtractionCandidate>();
  let previous: TranscriptMessage | null = null;
  for (const message of messages) {
    if (message.isSidechain) continue;
    if (message.kind === "user") {
      const afterFailedTool = previous?.toolCalls.some((call) => call.result?.isError === true) ?? false;
      const context: Evidence[] = previous?.kind === "assistant" ? [contextOf(previous)] : [];
      for (const found of findExplicitInstructions(message.text, afterFailedTool)) {
        const candidate = buildRuleCandidate(found, message, context);
        if (!candidates.has(candidate.file)) candidates.set(candidate.file, candidate);
      }
    }
    if (message.kind === "user" || message.kind === "assistant") previous = message;
  }
  return [...candidates.values()].map((candidate) => ({ ...candidate, evidence: candidate.evidence.map((item) => ({ ...item, excerpt: excerptOf(item.excerpt) })) }));
}

function contextOf(message: TranscriptMessage): Evidence {
  const failed = message.toolCalls.filter((call) => call.result?.isError);
  const toolLine = failed.map((call) => `${call.name} failed: ${call.result?.text ?? ""}`).join("\n");
  return { uuid: message.uuid, role: "assistant", excerpt: excerptOf([message.text, toolLine].filter(Boolean).join("\n"), 300) };
}
