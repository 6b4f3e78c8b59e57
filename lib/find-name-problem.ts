// Controls (Cc) and format characters (Cf: bidirectional overrides and isolates, zero-width
// characters, the BOM): a name holding one reads one way and is another ("gnp\u202Eexe.gro"), or
// breaks the line it is shown on. The zero-width joiner and non-joiner stay: emoji and several
// scripts (Persian, the Indic ones) need them.
const INVISIBLE_OR_CONTROL = /(?![\u200C\u200D])[\p{Cc}\p{Cf}]/u;

/**
 * Why a name people give (an account, a project, an API token) cannot be shown as it is, or null.
 * It is printed on pages, in CLI output and in the team store's commit messages, one line each.
 * Never repeats the name.
 */
export function findNameProblem(name: string): string | null {
  const found = INVISIBLE_OR_CONTROL.exec(name);
  if (!found) return null;
  const code = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  return found[0] === "\n" || found[0] === "\r" ? "must be one line" : `holds an invisible or control character (${code}); type the name again without it`;
}
