import { stripQuotedText } from "./strip-quoted-text";

export type InstructionKind = "remember" | "from-now-on" | "rule" | "correction";

export type FoundInstruction = { kind: InstructionKind; sentence: string };

// Explicit memory words: "remember that …", "keep in mind …", "note for the future: …".
const REMEMBER = /^(?:please\s+|also\s+|and\s+|btw,?\s+)?(?:remember|keep in mind|note for (?:the )?future|for future reference)\b(?:\s*[:,]|\s+that|\s+to)?\s+/i;
const FROM_NOW_ON = /\b(?:from now on|going forward|in (?:the )?future|next time|from here on)\b/i;
// An imperative rule at the head of a sentence: "never …", "always …", "don't …", "we always …".
const RULE_HEAD = /^(?:please\s+|and\s+|also\s+|so\s+)?(?:(?:we|you should)\s+)?(?:never|always|don'?t|do not|stop|avoid|make sure (?:to|you)|must not|must)\b/i;
// Phrases that start like a rule but are not one.
const NOT_A_RULE = /^(?:please\s+)?(?:don'?t|do not)\s+(?:worry|know|mind|think|care|see|understand|get it|remember|bother)\b|^never\s*mind\b|^always\s+(?:happy|glad|fun)\b/i;
// A correction right after a tool call failed: "no, use …", "that's wrong, …", "use X instead".
const CORRECTION = /^(?:no\b|nope\b|wrong\b|that'?s (?:wrong|not (?:it|right))|actually\b|not like that\b|instead\b)|\binstead\b|\buse\s+\S+\s+(?:instead|not)\b/i;
const QUESTION_OR_HYPOTHETICAL = /\?\s*$|^(?:if|when|whether|do you|did you|can you|could you|would you|should (?:we|i)|i (?:don'?t|do not|can'?t) remember|remember when)\b/i;

/**
 * Explicit instructions and corrections in a user's own words (X8): quoted
 * code and pasted output are stripped first, questions and hypotheticals are not instructions.
 * `afterFailedTool` enables corrections ("no, use pnpm"), which mean nothing on their own.
 */
export function findExplicitInstructions(text: string, afterFailedTool: boolean): FoundInstruction[] {
  const found: FoundInstruction[] = [];
  const own = stripQuotedText(text);
  for (const sentence of splitSentences(own.text)) {
    const kind = classify(sentence, afterFailedTool);
    if (kind) found.push({ kind, sentence: own.restoreCode(sentence) });
  }
  return found;
}

function classify(sentence: string, afterFailedTool: boolean): InstructionKind | null {
  if (sentence.length < 12 || sentence.length > 400) return null;
  if (QUESTION_OR_HYPOTHETICAL.test(sentence) || NOT_A_RULE.test(sentence)) return null;
  if (REMEMBER.test(sentence)) return "remember";
  if (FROM_NOW_ON.test(sentence)) return "from-now-on";
  if (RULE_HEAD.test(sentence)) return "rule";
  if (afterFailedTool && CORRECTION.test(sentence)) return "correction";
  return null;
}

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim().replace(/^[-*•]\s+/, ""))
    .filter((sentence) => sentence !== "");
}
