import { findFormatTokens } from "./find-format-tokens";
import { readsAsWords } from "./measure-entropy";
import { mergeSecretRanges } from "./merge-secret-ranges";
import { RANK_FORMAT, type SecretRange } from "./secret-finding";

// Markdown emphasis and code markers glued inside a token: `**ghp_R8nQ2x**Wk1Y…`.
const MARKER_GAP = /[*_`]{1,3}/y;
// A token that ends its line, wrapped by an editor: the line break, the next line's indentation
// or blockquote marker, and emphasis closed before the break or opened after it.
const LINE_BREAK_GAP = /[*_`]{0,3}[ \t]*\r?\n[ \t]*(?:>[ \t]*)*[*_`]{0,3}/y;
// What may follow the last piece of a wrapped token: the emphasis around it closes, or its line
// ends (after a stop).
const LINE_END = /[*_`]{1,3}(?![A-Za-z0-9])|[.,;:)\]'"]?[ \t]*(?:\r?\n|$)/y;
// A piece after a line break must be token-like on its own, so prose, a file name or a short word
// on the next line stays out; a piece glued to the token by a marker may be shorter.
const MIN_WRAPPED_PIECE = 8;
const MIN_GLUED_PIECE = 4;
// A key block spans lines by design and has its own end; a password is short and written by hand.
const UNSPLIT_KINDS = new Set<string>(["private-key", "password-assignment"]);

type Alphabet = { hasLower: boolean; hasUpper: boolean; hasBase64: boolean; hasDot: boolean };
// Where the other ranges start and end: a piece that is a secret of its own (the next of a list of
// keys, one a line) keeps its own finding instead of being joined to the one before.
type Neighbours = { starts: Set<number>; ends: Set<number> };

/**
 * Ranges widened over the rest of a token that markdown or a line wrap cut in pieces: a key wrapped
 * onto the next line (`sk_live_51Hx…\n8mN4pR…`), a token partly in bold (`**ghp_R8nQ**Wk1Y…`).
 * Masking only the piece a rule found left the others in clear, committed to the store.
 */
export function extendSplitTokenRanges(text: string, ranges: SecretRange[]): SecretRange[] {
  if (ranges.length === 0) return ranges;
  const neighbours: Neighbours = { starts: new Set(ranges.map((range) => range.start)), ends: new Set(ranges.map((range) => range.end)) };
  let isExtended = false;
  const extended = ranges.map((range) => {
    if (UNSPLIT_KINDS.has(range.kind) || !range.isBounded) return range;
    const alphabet = alphabetOf(text.slice(range.start, range.end));
    const left = extendLeft(text, range.start, alphabet, neighbours);
    const right = extendRight(text, range.end, alphabet, neighbours);
    if (left.pieces.length === 0 && right.pieces.length === 0) return range;
    isExtended = true;
    const joined = [...left.pieces, text.slice(range.start, range.end), ...right.pieces].join("");
    return { ...range, ...kindOfJoined(joined, range), start: left.start, end: right.end };
  });
  return isExtended ? mergeSecretRanges(extended) : ranges;
}

function alphabetOf(value: string): Alphabet {
  return { hasLower: /[a-z]/.test(value), hasUpper: /[A-Z]/.test(value), hasBase64: /[+/]/.test(value), hasDot: value.includes(".") };
}

// Whole, the pieces may read as a provider's token (`ghp_` + 36): then it is named for it.
function kindOfJoined(joined: string, range: SecretRange): Pick<SecretRange, "kind" | "rank"> {
  const whole = findFormatTokens(joined).find((token) => token.start === 0 && token.end === joined.length);
  return whole ? { kind: whole.kind, rank: RANK_FORMAT } : { kind: range.kind, rank: range.rank };
}

function extendRight(text: string, from: number, alphabet: Alphabet, neighbours: Neighbours): { end: number; pieces: string[] } {
  const pieces: string[] = [];
  let end = from;
  for (;;) {
    const piece = pieceAfterGap(text, end, alphabet);
    if (!piece || neighbours.starts.has(piece.start)) return { end, pieces };
    pieces.push(text.slice(piece.start, piece.end));
    end = piece.end;
  }
}

function pieceAfterGap(text: string, from: number, alphabet: Alphabet): { start: number; end: number } | null {
  for (const gap of [MARKER_GAP, LINE_BREAK_GAP]) {
    gap.lastIndex = from;
    const match = gap.exec(text);
    if (!match) continue;
    const isWrapped = match[0].includes("\n");
    const start = from + match[0].length;
    const end = trimRunEnd(text, start, readRun(text, start, 1, alphabet));
    if (!isTokenPiece(text.slice(start, end), alphabet, isWrapped ? MIN_WRAPPED_PIECE : MIN_GLUED_PIECE)) continue;
    if (isWrapped && !endsLine(text, end)) continue;
    return { start, end };
  }
  return null;
}

function extendLeft(text: string, from: number, alphabet: Alphabet, neighbours: Neighbours): { start: number; pieces: string[] } {
  const pieces: string[] = [];
  let start = from;
  for (;;) {
    let markerStart = start;
    while (markerStart > 0 && start - markerStart < 3 && isMarker(text.charCodeAt(markerStart - 1))) markerStart--;
    if (markerStart === start) return { start, pieces };
    let pieceStart = readRun(text, markerStart, -1, alphabet);
    while (pieceStart < markerStart && text.charCodeAt(pieceStart) === UNDERSCORE) pieceStart++; // the emphasis that opens it
    const piece = text.slice(pieceStart, markerStart);
    if (!isTokenPiece(piece, alphabet, MIN_GLUED_PIECE) || neighbours.ends.has(markerStart)) return { start, pieces };
    pieces.unshift(piece);
    start = pieceStart;
  }
}

/** The end (step 1) or start (step -1) of the run of token characters from `from`. */
function readRun(text: string, from: number, step: 1 | -1, alphabet: Alphabet): number {
  let index = from;
  if (step > 0) {
    while (index < text.length && isTokenChar(text.charCodeAt(index), alphabet)) index++;
    for (let padding = 0; alphabet.hasBase64 && padding < 2 && text.charCodeAt(index) === EQUALS; padding++) index++;
    return index;
  }
  while (index > 0 && isTokenChar(text.charCodeAt(index - 1), alphabet)) index--;
  return index;
}

// Underscores that close emphasis (`…Wk1Y__`) and a full stop that ends the sentence are not the token's.
function trimRunEnd(text: string, start: number, end: number): number {
  let trimmed = end;
  while (trimmed > start && (text.charCodeAt(trimmed - 1) === UNDERSCORE || text.charCodeAt(trimmed - 1) === DOT)) trimmed--;
  return trimmed;
}

function endsLine(text: string, from: number): boolean {
  LINE_END.lastIndex = from;
  return LINE_END.test(text);
}

// Token-like on its own: two of lower case, upper case and digits, letters only in a case the
// token has (`AKIA…` is not continued by `abc123…`), and not mostly English words.
function isTokenPiece(piece: string, alphabet: Alphabet, minLength: number): boolean {
  if (piece.length < minLength) return false;
  const hasLower = /[a-z]/.test(piece);
  const hasUpper = /[A-Z]/.test(piece);
  const hasDigit = /[0-9]/.test(piece);
  if (Number(hasLower) + Number(hasUpper) + Number(hasDigit) < 2) return false;
  if ((hasLower && !alphabet.hasLower) || (hasUpper && !alphabet.hasUpper)) return false;
  if (alphabet.hasUpper && piece.length >= 12 && !hasUpper && /^[0-9a-f]+$/.test(piece)) return false; // a commit SHA after a mixed-case key
  return !readsAsWords(piece);
}

const UNDERSCORE = 95;
const DOT = 46;
const EQUALS = 61;

function isMarker(code: number): boolean {
  return code === 42 || code === UNDERSCORE || code === 96; // * _ `
}

// Letters, digits, `_` and `-` (prefixes: `ghp_`, `glpat-`); `+` `/` and `.` only in a token that has them.
function isTokenChar(code: number, alphabet: Alphabet): boolean {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === UNDERSCORE || code === 45) return true;
  if (alphabet.hasBase64 && (code === 43 || code === 47)) return true;
  return alphabet.hasDot && code === DOT;
}
