import { parseFrontmatter, parseMemoryHeader } from "../memdir/frontmatter";

export type AbsoluteRuleHit = { line: number; word: string };

// A rule line may be a list item and may be bold: "- **Never** mock the sandbox".
const RULE_START = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\*\*|__|\*|_)?(always|never|must)\b/i;

/**
 * T2: rules that read as absolute behaviour ("always", "never", "must" at the start of a rule
 * line, or of the description) are worth a second look before they bind every member's agent.
 * Only the word and the line are reported: the line itself may hold text a reviewer should not
 * see copied into the checks.
 */
export function findAbsoluteRules(text: string): AbsoluteRuleHit[] {
  const hits: AbsoluteRuleHit[] = [];
  const description = parseMemoryHeader(text).description;
  const descriptionWord = description ? RULE_START.exec(description)?.[1] : undefined;
  if (descriptionWord) hits.push({ line: descriptionLine(text), word: capitalise(descriptionWord) });
  const { body } = parseFrontmatter(text);
  const bodyStart = text.replace(/\r\n/g, "\n").split("\n").length - body.split("\n").length;
  body.split("\n").forEach((line, index) => {
    const word = RULE_START.exec(line)?.[1];
    if (word) hits.push({ line: bodyStart + index + 1, word: capitalise(word) });
  });
  return hits;
}

function descriptionLine(text: string): number {
  const index = text.replace(/\r\n/g, "\n").split("\n").findIndex((line) => /^description\s*:/.test(line));
  return index + 1;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}
