import { findFormatTokens } from "./find-format-tokens";
import type { SecretRange } from "./secret-finding";

// Between two pieces of a token a wrap leaves: emphasis closed before the break, the break, the
// next line's indentation or blockquote marker, emphasis opened after it.
const WRAP_GAP_BEFORE = /[*_`]{0,3}[ \t]*\r?$/;
const WRAP_GAP_AFTER = /^[ \t]*(?:>[ \t]*)*[*_`]{0,3}/;
// The shortest provider token (`AKIA` and 16 more); each piece at least this long, so the break
// between two words of prose is not read as a cut token.
const MIN_TOKEN_LENGTH = 20;
const MIN_PIECE = 4;
// A terminal narrower than a token cuts it more than once; more pieces than this are not a paste.
const MAX_PIECES = 4;
const MAX_RUN = 300;

/**
 * Provider tokens a line wrap cut where no rule can recognise the first piece on its own: a paste
 * into a narrow terminal (`ghp_C3J27XDCG2Lm` and the rest on the next line), or two text blocks
 * of one message joined by a line break. extendSplitTokenRanges joins the pieces after a piece a
 * rule found; this reads the pieces joined and keeps the tokens that run across a break.
 */
export function findWrappedFormatTokens(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", newline + 1)) {
    const first = runBefore(text, newline);
    if (first === null) continue;
    const pieces = [first];
    let lineEnd = newline;
    while (pieces.length < MAX_PIECES) {
      const next = runAfter(text, lineEnd);
      if (next === null) break;
      pieces.push(next);
      // A middle piece is its whole line; the last may be followed by prose.
      const following = text.indexOf("\n", next.end);
      if (following < 0 || !WRAP_GAP_BEFORE.test(text.slice(next.end, following))) break;
      lineEnd = following;
    }
    if (pieces.length < 2) continue;
    // A token whole before the break is the rules' (and extendSplitTokenRanges', which decides
    // whether the next line continues it): an open-ended format would run on into the next line.
    if (findFormatTokens(text.slice(first.start, first.end)).length === 0) ranges.push(...tokensAcrossBreaks(text, pieces));
    newline = pieces.at(-1)!.start; // the pieces read, the search goes on after them
  }
  return ranges;
}

type Piece = { start: number; end: number };

function tokensAcrossBreaks(text: string, pieces: Piece[]): SecretRange[] {
  let joined = "";
  const offsets: number[] = [];
  const breaks: number[] = [];
  for (const piece of pieces) {
    if (joined.length > 0) breaks.push(joined.length);
    for (let index = piece.start; index < piece.end; index++) offsets.push(index);
    joined += text.slice(piece.start, piece.end);
  }
  if (joined.length < MIN_TOKEN_LENGTH) return [];
  return findFormatTokens(joined)
    .filter((token) => breaks.some((at) => token.start < at && token.end > at))
    .map((token) => ({ ...token, start: offsets[token.start]!, end: offsets[token.end - 1]! + 1 }));
}

// The run of token characters that ends the line before `newline` (after closing emphasis).
function runBefore(text: string, newline: number): Piece | null {
  const lineStart = text.lastIndexOf("\n", newline - 1) + 1;
  const gap = WRAP_GAP_BEFORE.exec(text.slice(Math.max(lineStart, newline - 8), newline));
  const end = newline - (gap?.[0].length ?? 0);
  let start = end;
  while (start > lineStart && end - start < MAX_RUN && isTokenChar(text.charCodeAt(start - 1))) start--;
  return end - start >= MIN_PIECE ? { start, end } : null;
}

// The run of token characters that opens the line after `newline` (after indentation, `>`, emphasis).
function runAfter(text: string, newline: number): Piece | null {
  const gap = WRAP_GAP_AFTER.exec(text.slice(newline + 1, newline + 1 + 40));
  const start = newline + 1 + (gap?.[0].length ?? 0);
  let end = start;
  while (end < text.length && end - start < MAX_RUN && isTokenChar(text.charCodeAt(end))) end++;
  return end - start >= MIN_PIECE && isMixed(text.slice(start, end)) ? { start, end } : null;
}

// Two of lower case, upper case and digits: the rest of a token, not a word that starts the next line.
function isMixed(piece: string): boolean {
  return Number(/[a-z]/.test(piece)) + Number(/[A-Z]/.test(piece)) + Number(/[0-9]/.test(piece)) >= 2;
}

function isTokenChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 45;
}
