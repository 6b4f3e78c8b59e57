import type { SecretFinding } from "./secret-finding";

export type MaskedSegment = { text: string; secret: { kind: string; preview: string } | null };

/**
 * Cuts a text at its secret findings so a page can show everything else and, in place of each
 * value, its kind and redacted preview: the value itself never reaches the browser.
 */
export function maskSecretRanges(text: string, findings: readonly Pick<SecretFinding, "start" | "end" | "kind" | "preview">[]): MaskedSegment[] {
  const segments: MaskedSegment[] = [];
  let offset = 0;
  for (const finding of [...findings].sort((a, b) => a.start - b.start)) {
    if (finding.start < offset) continue; // overlapping ranges were merged by the scanner; be safe
    if (finding.start > offset) segments.push({ text: text.slice(offset, finding.start), secret: null });
    segments.push({ text: "", secret: { kind: finding.kind, preview: finding.preview } });
    offset = finding.end;
  }
  if (offset < text.length) segments.push({ text: text.slice(offset), secret: null });
  return segments;
}

/** The text with each secret value replaced by a marker, for places that show plain text. */
export function maskSecretsInText(text: string, findings: readonly Pick<SecretFinding, "start" | "end" | "kind" | "preview">[]): string {
  return maskSecretRanges(text, findings).map((segment) => (segment.secret ? `[${segment.secret.kind} ${segment.secret.preview}]` : segment.text)).join("");
}
