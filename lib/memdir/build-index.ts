export type IndexEntry = {
  /** Link target relative to the memory directory, with `/` separators. */
  file: string;
  title: string;
  hook: string | null;
};

/** I1: `- [Title](file.md) — hook`, one line per memory; link text and target escaped. */
export function formatIndexLine(entry: IndexEntry): string {
  const title = entry.title.replace(/[\r\n]+/g, " ").replace(/([[\]\\])/g, "\\$1");
  // encodeURIComponent leaves ( and ) alone, and a bare ) would end the Markdown link early; a
  // bare # or ? would start a fragment or a query (`c#_notes.md` would link to `c`).
  const target = entry.file.replace(/[ ()%#?]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  const hook = entry.hook?.replace(/[\r\n]+/g, " ").trim();
  return hook ? `- [${title}](${target}) — ${hook}` : `- [${title}](${target})`;
}

/** Builds a MEMORY.md index for the given memories, in the given order. */
export function buildIndex(entries: IndexEntry[]): string {
  return entries.map(formatIndexLine).join("\n") + (entries.length ? "\n" : "");
}
