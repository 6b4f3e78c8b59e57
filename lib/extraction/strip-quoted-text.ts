/**
 * What the user typed in their own voice: fenced and inline code, quoted lines (`> …`), pasted
 * logs and stack traces removed. A rule found inside pasted material is someone else's words.
 */
export function stripQuotedText(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, "\n")
    .replace(/`[^`\n]*`/g, "…")
    .split("\n")
    .filter((line) => !isPastedLine(line))
    .join("\n");
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
