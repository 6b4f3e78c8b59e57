import { FRONTMATTER_MAX_LINES, normaliseText, parseMemoryHeader, type MemoryHeader } from "../memdir/frontmatter";

/**
 * A memory's name, description and type as a scan, lint and the read model (the server's checks)
 * read them: C4, only the first 30 lines count, so a frontmatter closing after line 30 gives none.
 */
export function readScannedHeader(text: string): MemoryHeader {
  return parseMemoryHeader(normaliseText(text).split("\n").slice(0, FRONTMATTER_MAX_LINES).join("\n"));
}
