import { extendSplitTokenRanges } from "./extend-split-token-ranges";
import { findAzureSasSignatures } from "./find-azure-sas-signatures";
import { findEncodedSecrets } from "./find-encoded-secrets";
import { findFormatTokens } from "./find-format-tokens";
import { findHighEntropyValues } from "./find-high-entropy-values";
import { findKeywordAssignments } from "./find-keyword-assignments";
import { findMysqlPasswordFlags } from "./find-mysql-password-flags";
import { findPrivateKeys } from "./find-private-keys";
import { findProviderContextTokens } from "./find-provider-context-tokens";
import { findProsePasswords } from "./find-prose-passwords";
import { findSignedUrlSignatures } from "./find-signed-url-signatures";
import { findSplitFormatTokens } from "./find-split-format-tokens";
import { findUrlCredentials } from "./find-url-credentials";
import { findWrappedFormatTokens } from "./find-wrapped-format-tokens";
import { mergeSecretRanges } from "./merge-secret-ranges";
import { previewSecret } from "./preview-secret";
import type { SecretFinding, SecretRange } from "./secret-finding";

/** A finding plus whether its end is certain; redaction blocks on the uncertain ones. */
export type DetectedSecret = SecretFinding & { isBounded: boolean };

/**
 * Every secret range our own rules find in a text, merged, each over the whole token when a line
 * wrap or markdown emphasis cut it in pieces. Synchronous and allocation-light.
 */
export function findSecretRanges(text: string): SecretRange[] {
  return extendSplitTokenRanges(text, mergeSecretRanges([...findPlainSecretRanges(text), ...findEncodedSecrets(text, findPlainSecretRanges)]));
}

/** The rules that read a secret as written (not encoded). */
function findPlainSecretRanges(text: string): SecretRange[] {
  return mergeSecretRanges([
    ...findPrivateKeys(text),
    ...findFormatTokens(text),
    ...findSplitFormatTokens(text),
    ...findWrappedFormatTokens(text),
    ...findProviderContextTokens(text),
    ...findUrlCredentials(text),
    ...findAzureSasSignatures(text),
    ...findSignedUrlSignatures(text),
    ...findMysqlPasswordFlags(text),
    ...findKeywordAssignments(text),
    ...findProsePasswords(text),
    ...findHighEntropyValues(text),
  ]);
}

/** Line, column and preview for merged ranges (sorted by start, as mergeSecretRanges returns). */
export function locateSecretRanges(text: string, ranges: SecretRange[]): DetectedSecret[] {
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  return ranges.map(({ kind, start, end, isBounded }) => {
    for (let newline = text.indexOf("\n", scanned); newline >= 0 && newline < start; newline = text.indexOf("\n", newline + 1)) {
      line++;
      lineStart = newline + 1;
    }
    scanned = start;
    return { kind, start, end, line, column: start - lineStart + 1, preview: previewSecret(text.slice(start, end)), isBounded };
  });
}

export function detectSecrets(text: string): DetectedSecret[] {
  return locateSecretRanges(text, findSecretRanges(text));
}

/** The public shape: drops `isBounded`, which callers outside this folder do not need. */
export function toSecretFinding({ kind, start, end, line, column, preview }: DetectedSecret): SecretFinding {
  return { kind, start, end, line, column, preview };
}
