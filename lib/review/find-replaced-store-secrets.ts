import type { LintFinding } from "../memdir/lint-finding";
import { formatRedactionMarker, maskSecretRanges } from "../secrets/mask-secret-ranges";

const MESSAGE =
  "The store's version holds a secret here, and this proposal has the marker pages show in its place (an edit of the masked copy a member syncs): approving it takes the secret out of the store, although the masked diff shows the line unchanged.";

/**
 * Where a proposal carries, as literal text, the `[REDACTED:…]` marker every page shows for a
 * secret of the store's version it replaces. A member syncs such a file masked; whatever line
 * they edit, the marker travels back and the commit writes it in place of the secret. That is
 * the right outcome (the secret leaves the store), but the reviewer's masked diff shows the line
 * unchanged, so the review says it.
 */
export function findReplacedStoreSecrets(file: string, content: string, baseContent: string | null): LintFinding[] {
  if (baseContent === null || !content.includes("[REDACTED:")) return [];
  const markers = new Set(maskSecretRanges(baseContent).flatMap((segment) => (segment.secret ? [formatRedactionMarker(segment.secret.kind, segment.secret.preview)] : [])));
  const findings: LintFinding[] = [];
  for (const marker of markers) {
    for (let at = content.indexOf(marker); at !== -1; at = content.indexOf(marker, at + marker.length)) {
      findings.push({ file, rule: "replaces-store-secret", severity: "warning", line: lineAt(content, at), message: MESSAGE });
    }
  }
  return findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  return line;
}
