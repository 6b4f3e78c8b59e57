// A private-use pair around an index: no sentence break, rule word or secret pattern matches it.
const CODE_MARK = /\uE000(\d+)\uE001/g;

export type OwnWords = {
  /** The text with inline code held out of sight (a marker in its place). */
  text: string;
  /** Puts the inline code back into a sentence of `text`. */
  restoreCode: (sentence: string) => string;
};

/**
 * What the user typed in their own voice: fenced code, quoted lines (`> …`), pasted logs and
 * stack traces removed. A rule found inside pasted material is someone else's words. Inline code
 * is held out of sight, not removed: it never makes a sentence a rule, but a rule that names a
 * command ("run `docker compose up -d db` first") must keep it.
 */
export function stripQuotedText(text: string): OwnWords {
  const inlineCode: string[] = [];
  const own = text
    .replace(/[\uE000\uE001]/g, "")
    .replace(/```[\s\S]*?(?:```|$)/g, "\n")
    .replace(/`[^`\n]*`/g, (code) => `\uE000${inlineCode.push(code) - 1}\uE001`)
    .split("\n")
    .filter((line) => !isPastedLine(line))
    .join("\n");
  return { text: own, restoreCode: (sentence) => sentence.replace(CODE_MARK, (_, index: string) => inlineCode[Number(index)] ?? "") };
}

function isPastedLine(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed.startsWith(">") ||
    /^at\s+\S+\s*\(?.*:\d+/.test(trimmed) ||
    /^(?:error|warning|info|debug|trace)\b[:[]/i.test(trimmed) ||
    /^\s*\$\s/.test(line) ||
    /^[\w.-]+\.(?:ts|js|py|go|rs|java|json):\d+/.test(trimmed) ||
    /^(?: {4}|\t)/.test(line)
  );
}
