import { normaliseText } from "./frontmatter";

/** I2: the index is loaded into every session, so Claude Code caps it. */
export const MAX_ENTRYPOINT_LINES = 200;
export const MAX_ENTRYPOINT_BYTES = 25_000;
/** C7: index lines are advised to stay under about this many characters. */
export const MAX_INDEX_LINE_CHARS = 150;

export type IndexTruncation = {
  /** Lines and "bytes" (string length, C7) of the trimmed index without frontmatter and comments. */
  lines: number;
  bytes: number;
  /** Over the line / size limit (Claude Code's flags: the size flag is set on the whole index). */
  lineTruncated: boolean;
  byteTruncated: boolean;
  /**
   * The size cut that happened to what the line cut left: none (the first 200 lines fit, even
   * when the whole index is over), at the last line end before the limit, or at the limit itself
   * (no line end before it).
   */
  sizeCut: "none" | "line-end" | "exact";
  /** Lines that reach the model, before the warning. */
  loadedLines: number;
  /** Exactly the text that is loaded, with teammem's warning appended when it was cut. */
  loaded: string;
  warning: string | null;
};

/**
 * I3, C7: what of MEMORY.md is loaded. Frontmatter and HTML comments are removed and the rest
 * trimmed; then the first 200 lines are kept, then the text is cut at the last newline before
 * 25,000 characters (at 25,000 when there is none).
 */
export function truncateIndex(raw: string): IndexTruncation {
  const content = loadableIndexText(raw);
  const contentLines = content === "" ? [] : content.split("\n");
  const lineTruncated = contentLines.length > MAX_ENTRYPOINT_LINES;
  const byteTruncated = content.length > MAX_ENTRYPOINT_BYTES;
  let kept = lineTruncated ? contentLines.slice(0, MAX_ENTRYPOINT_LINES).join("\n") : content;
  let sizeCut: IndexTruncation["sizeCut"] = "none";
  if (kept.length > MAX_ENTRYPOINT_BYTES) {
    const cutAt = kept.lastIndexOf("\n", MAX_ENTRYPOINT_BYTES);
    sizeCut = cutAt > 0 ? "line-end" : "exact";
    kept = kept.slice(0, cutAt > 0 ? cutAt : MAX_ENTRYPOINT_BYTES);
  }
  const warning = lineTruncated || byteTruncated ? truncationWarning(contentLines.length, content.length, lineTruncated, byteTruncated) : null;
  return {
    lines: contentLines.length,
    bytes: content.length,
    lineTruncated,
    byteTruncated,
    sizeCut,
    loadedLines: kept === "" ? 0 : kept.split("\n").length,
    loaded: warning ? `${kept}\n\n${warning}` : kept,
    warning,
  };
}

/** C7: the index as Claude Code reads it, before any cut. */
export function loadableIndexText(raw: string): string {
  const text = normaliseText(raw);
  const withoutFrontmatter = text.replace(/^---[ \t]*\n[\s\S]*?\n---[ \t]*(?:\n|$)/, "");
  return withoutFrontmatter.replace(/<!--[\s\S]*?-->/g, "").trim();
}

function truncationWarning(lines: number, bytes: number, isOverLines: boolean, isOverBytes: boolean): string {
  const reasons = [
    ...(isOverLines ? [`${lines} lines (the limit is ${MAX_ENTRYPOINT_LINES})`] : []),
    ...(isOverBytes ? [`${bytes} characters (the limit is ${MAX_ENTRYPOINT_BYTES.toLocaleString("en-US")})`] : []),
  ];
  return (
    `> Note from teammem: this MEMORY.md has ${reasons.join(" and ")}, so only its beginning was loaded. ` +
    `Keep each entry to a single line of about ${MAX_INDEX_LINE_CHARS} characters and put the detail in the topic files.`
  );
}

/** I6: the form in which the index reaches the model. */
export function formatLoadedIndex(indexPath: string, truncation: IndexTruncation): string {
  return `Contents of ${indexPath} (user's auto-memory, persists across conversations):\n\n${truncation.loaded}`;
}
