import { detectSecrets } from "./detect-secrets";
import { findFormatTokensInName } from "./find-format-tokens";
import { previewSecret } from "./preview-secret";
import { scanWithKey } from "./scan-with-key";
import type { SecretFinding } from "./secret-finding";

export type DisplayFinding = Pick<SecretFinding, "start" | "end" | "kind" | "preview">;

export type MaskedSegment = { text: string; secret: { kind: string; preview: string } | null };

/**
 * The text as every page and every API response shows it: each secret value replaced by
 * `[REDACTED:<kind> <preview>]`. The text is scanned again here, so findings stored with an older
 * scanner (or none at all) cannot let a value through; `knownFindings` adds ranges only another
 * layer found (secretlint's rarer providers).
 */
export function maskSecretsForDisplay(text: string, knownFindings: readonly DisplayFinding[] = []): string {
  return maskSecretRanges(text, knownFindings)
    .map((segment) => (segment.secret ? formatRedactionMarker(segment.secret.kind, segment.secret.preview) : segment.text))
    .join("");
}

/**
 * `maskSecretsForDisplay` for text that may quote a name, a path or an id the caller sent (an
 * error message, an echoed id): a token glued to a name's `_` or `-` (`reference_ghp_….md`,
 * which the text rules read as the tail of a longer word) is masked too.
 */
export function maskSecretsInQuotedNames(text: string): string {
  const inNames = findFormatTokensInName(text).map((range) => ({ start: range.start, end: range.end, kind: range.kind, preview: previewSecret(text.slice(range.start, range.end)) }));
  return maskSecretsForDisplay(text, inNames);
}

/** `maskSecretsForDisplay` for an optional text. */
export function maskOptionalText(text: string | null): string | null {
  return text === null ? null : maskSecretsForDisplay(text);
}

/**
 * Every string inside a JSON-like value masked (provenance, reports), structure and Dates kept.
 * `mask` is maskSecretsInQuotedNames where the strings hold file names (an index report, a model's
 * candidates): a token glued to a name's `_` is masked there too.
 */
export function maskSecretsDeep(value: unknown, mask: (text: string) => string = maskSecretsForDisplay): unknown {
  if (typeof value === "string") return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskSecretsDeep(item, mask));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [mask(key), typeof inner === "string" ? scanWithKey(key, inner, mask) : maskSecretsDeep(inner, mask)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null; // Dates and the like stay as they are
}

/** Cuts a text at its secrets (scanned now, plus `knownFindings`) into plain and secret segments. */
export function maskSecretRanges(text: string, knownFindings: readonly DisplayFinding[] = []): MaskedSegment[] {
  const ranges = unionOfRanges(text, [...detectSecrets(text), ...knownFindings.filter((finding) => finding.start >= 0 && finding.end <= text.length && finding.start < finding.end)]);
  const segments: MaskedSegment[] = [];
  let offset = 0;
  for (const range of ranges) {
    if (range.start > offset) segments.push({ text: text.slice(offset, range.start), secret: null });
    segments.push({ text: "", secret: { kind: range.kind, preview: range.preview } });
    offset = range.end;
  }
  if (offset < text.length) segments.push({ text: text.slice(offset), secret: null });
  return segments;
}

const MARKER = /\[REDACTED:([a-z0-9-]+)(?: ([^\]\n]*))?\]/g;

export function formatRedactionMarker(kind: string, preview: string): string {
  return `[REDACTED:${kind} ${preview}]`;
}

/** Splits text that was masked for display back into segments, so a page can highlight markers. */
export function splitRedactionMarkers(maskedText: string): MaskedSegment[] {
  const segments: MaskedSegment[] = [];
  let offset = 0;
  for (const match of maskedText.matchAll(MARKER)) {
    if (match.index > offset) segments.push({ text: maskedText.slice(offset, match.index), secret: null });
    segments.push({ text: "", secret: { kind: match[1]!, preview: match[2] ?? "" } });
    offset = match.index + match[0].length;
  }
  if (offset < maskedText.length) segments.push({ text: maskedText.slice(offset), secret: null });
  return segments;
}

// Overlapping ranges from the two sources become one: never less than either saw.
function unionOfRanges(text: string, findings: readonly DisplayFinding[]): DisplayFinding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: DisplayFinding[] = [];
  for (const finding of sorted) {
    const last = merged.at(-1);
    if (last && finding.start < last.end) {
      if (finding.end > last.end) merged[merged.length - 1] = { ...last, end: finding.end, preview: previewSecret(text.slice(last.start, finding.end)) };
      continue;
    }
    merged.push({ kind: finding.kind, start: finding.start, end: finding.end, preview: finding.preview });
  }
  return merged;
}
