// Controls (Cc: C0, DEL and C1) but the tab, the line and paragraph separators, and the
// bidirectional overrides and isolates. A terminal obeys the first ones (ESC starts colour,
// cursor and title sequences; CR and newline rewrite or add lines) and the last ones reorder
// what is shown ("invoice\u202Edm.md" reads as "invoiceexe.md"). A tab only moves the cursor.
const UNSAFE = /(?!\t)[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text from a file name, a memory or a server (a name, a reviewer's reason) made safe to print
 * on one line, to a terminal or to a model: each character above becomes a visible escape
 * (`\x1b`, `\n`, `\u202e`), so the text can neither steer the terminal nor start a line of its
 * own (a name with a newline cannot add an entry to a manifest).
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

function escapeOne(character: string): string {
  const code = character.charCodeAt(0);
  if (code === 0x0a) return "\\n";
  if (code === 0x0d) return "\\r";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
