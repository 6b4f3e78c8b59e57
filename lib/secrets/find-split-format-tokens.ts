import { findFormatTokens } from "./find-format-tokens";
import type { SecretRange } from "./secret-finding";

// Runs of markdown emphasis or code markers before a token character; `isCut` keeps those that
// sit inside a token.
const MARKER_RUN = /[*`_]{1,3}(?=[A-Za-z0-9])/g;
// Longer than any provider token: the chain around a marker is not read past this on either side.
const MAX_CHAIN = 300;
// The shortest provider token (`AKIA` and 16 more), and the most cuts a pasted token gets: a chain
// of markdown cut more often (`a*b*c*…`, `x__y__z…`) is formatting, and reading each of them
// with the format rules made a 5 MB file of it take seconds.
const MIN_TOKEN_LENGTH = 20;
const MAX_CUTS = 4;

/**
 * Provider tokens (`ghp_…`, `sk_live_…`) cut or wrapped by markdown emphasis or code markers,
 * which the format rules miss: `**ghp_R8nQ2xLm4Pz7**Wk1Y…`, `__ghp_…__`. The pieces are joined
 * and read with the format rules; the range runs from the token's first character to its last.
 */
export function findSplitFormatTokens(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  MARKER_RUN.lastIndex = 0;
  for (let marker = MARKER_RUN.exec(text); marker; marker = MARKER_RUN.exec(text)) {
    if (!isCut(text, marker.index, marker[0])) continue;
    const chainStart = walkChain(text, marker.index, -1);
    const chainEnd = walkChain(text, marker.index, 1);
    ranges.push(...findInChain(text, chainStart, chainEnd));
    MARKER_RUN.lastIndex = chainEnd; // the rest of the chain is read already
  }
  MARKER_RUN.lastIndex = 0;
  return ranges;
}

// Markers glued between two token characters (`ghp_R8nQ**Wk1Y`; a single `_` there is the token's
// own, as in `sk_live_`), or underscores opening emphasis before one (`__ghp_…__`, `_ghp_…_`),
// which the format rules read as more of the token.
function isCut(text: string, index: number, run: string): boolean {
  if (isAlphanumeric(text.charCodeAt(index - 1))) return run !== "_";
  return run.endsWith("_") && !isChainChar(text.charCodeAt(index - 1));
}

function findInChain(text: string, chainStart: number, chainEnd: number): SecretRange[] {
  // Markers around the chain open and close emphasis; inside it, they cut the token.
  let coreStart = chainStart;
  let coreEnd = chainEnd;
  while (coreStart < coreEnd && isMarker(text.charCodeAt(coreStart))) coreStart++;
  while (coreEnd > coreStart && isMarker(text.charCodeAt(coreEnd - 1))) coreEnd--;
  if (coreEnd - coreStart < MIN_TOKEN_LENGTH) return [];
  // The core without its markers, and for each joined character where it sits in the text.
  let joined = "";
  const offsets: number[] = [];
  let cuts = 0;
  for (let index = coreStart; index < coreEnd; index++) {
    if (!isMarkerInside(text, index)) {
      joined += text.charAt(index);
      offsets.push(index);
    } else if (!isMarkerInside(text, index - 1) && ++cuts > MAX_CUTS) return [];
  }
  if (joined.length < MIN_TOKEN_LENGTH) return [];
  return findFormatTokens(joined).map((token) => ({ ...token, start: offsets[token.start] ?? 0, end: (offsets[token.end - 1] ?? 0) + 1 }));
}

// `*` and `` ` `` always; `_` only doubled, since a single one is the token's own (`sk_live_`).
function isMarkerInside(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code !== UNDERSCORE) return code === ASTERISK || code === BACKTICK;
  return text.charCodeAt(index - 1) === UNDERSCORE || text.charCodeAt(index + 1) === UNDERSCORE;
}

// From a marker outwards over token characters and markers, to the chain's first or last character.
function walkChain(text: string, from: number, step: 1 | -1): number {
  let index = from;
  if (step > 0) {
    const limit = Math.min(text.length, from + MAX_CHAIN);
    while (index < limit && isChainChar(text.charCodeAt(index))) index++;
    return index;
  }
  const limit = Math.max(0, from - MAX_CHAIN);
  while (index > limit && isChainChar(text.charCodeAt(index - 1))) index--;
  return index;
}

const UNDERSCORE = 95;
const ASTERISK = 42;
const BACKTICK = 96;

function isMarker(code: number): boolean {
  return code === ASTERISK || code === BACKTICK || code === UNDERSCORE;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

function isChainChar(code: number): boolean {
  return isAlphanumeric(code) || code === UNDERSCORE || code === 45 || code === ASTERISK || code === BACKTICK;
}
