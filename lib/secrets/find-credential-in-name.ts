import { findFormatTokensInName } from "./find-format-tokens";
import { scanSecrets } from "./scan-secrets";

/**
 * Why a file name may not be used because it holds a credential, or null. A name is shown to
 * every reviewer and written on every member's disk, so it is held to the text rules plus the
 * name's own word separators: `reference_ghp_….md` holds a token although the text scanner,
 * which reads `_ghp_…` as the tail of a longer string, passes it. The reason names the kind,
 * never the value.
 */
export function findCredentialInName(name: string): string | null {
  const kind = scanSecrets(name)[0]?.kind ?? findFormatTokensInName(name)[0]?.kind;
  return kind ? `holds what looks like a credential (${kind})` : null;
}
