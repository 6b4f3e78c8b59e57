// Controls (Cc) and format characters (Cf: bidirectional overrides and isolates, zero-width
// characters, the BOM), other characters that show as nothing (default-ignorable: the combining
// grapheme joiner, Hangul fillers), the braille blank and the line and paragraph separators: a
// name holding one reads one way and is another ("gnp\u202Eexe.gro"), or breaks the line it is
// shown on. The zero-width joiner and non-joiner stay, and the emoji variation selectors:
// emoji and several scripts (Persian, the Indic ones) need them.
const INVISIBLE_OR_CONTROL = /(?!\u200C|\u200D|\uFE0E|\uFE0F)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

/**
 * Why a name people give (an account, a project, an API token) cannot be shown as it is, or null.
 * It is printed on pages, in CLI output and in the team store's commit messages, one line each.
 * Never repeats the name.
 */
export function findNameProblem(name: string): string | null {
  const found = INVISIBLE_OR_CONTROL.exec(name);
  if (!found) return null;
  const code = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  return found[0] === "\n" || found[0] === "\r" || found[0] === "\u2028" || found[0] === "\u2029" ? "must be one line" : `holds an invisible or control character (${code}); type the name again without it`;
}
