// The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they
// reorder how the text around them is shown, so a reviewer reads one thing ("exe.txt") where an
// agent reads another ("txt.exe"). Right-to-left scripts need none of them; the marks LRM and
// RLM (U+200E, U+200F), which only nudge neutral characters, are not among them.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** The first bidirectional control in the text: its 1-based line and code point, or null. */
export function findBidiControl(text: string): { line: number; codePoint: string } | null {
  const found = BIDI_CONTROL.exec(text);
  if (!found) return null;
  const line = text.slice(0, found.index).split("\n").length;
  return { line, codePoint: `U+${found[0].codePointAt(0)!.toString(16).toUpperCase()}` };
}
