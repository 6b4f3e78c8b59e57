import { findAllMatches } from "./find-all-matches";
import { RANK_STRUCTURE, type SecretRange } from "./secret-finding";

// The signature of a presigned AWS (Signature V4, and V2's `Signature=` beside `AWSAccessKeyId=`)
// or Google Cloud Storage (V4) URL: whoever holds the URL reads or writes the object until it
// expires, up to a week. The credential parameter beside it is what tells these apart from any
// other `Signature` parameter.
const SIGNED_URL_RULES = [
  { kind: "aws-presigned-url-signature", signature: /(?<=[?&])X-Amz-Signature=([0-9a-f]{64})(?![0-9a-f])/gi, credential: /[?&]X-Amz-Credential=/i, literal: "x-amz-signature=" },
  { kind: "aws-presigned-url-signature", signature: /(?<=[?&])Signature=([A-Za-z0-9%+/=]{20,})/g, credential: /[?&]AWSAccessKeyId=/, literal: "signature=" },
  { kind: "gcs-signed-url-signature", signature: /(?<=[?&])X-Goog-Signature=([0-9a-f]{128,})(?![0-9a-f])/gi, credential: /[?&]X-Goog-Credential=/i, literal: "x-goog-signature=" },
] as const;
const URL_END = /[\s"'`<>]/;

/** The signatures of presigned object-store URLs (AWS S3, Google Cloud Storage). */
export function findSignedUrlSignatures(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  // Lookbehind patterns are not searched by a literal: most texts hold none of the names.
  if (!/signature=/i.test(text)) return ranges;
  const lower = text.toLowerCase();
  for (const rule of SIGNED_URL_RULES) {
    if (!lower.includes(rule.literal)) continue;
    for (const match of findAllMatches(rule.signature, text)) {
      if (!rule.credential.test(urlAround(text, match.index))) continue;
      const value = match[1] ?? "";
      const start = match.index + match[0].length - value.length;
      ranges.push({ kind: rule.kind, start, end: start + value.length, isBounded: true, rank: RANK_STRUCTURE });
    }
  }
  return ranges;
}

/** The run of URL characters around `index`, at most 4 KB each way. */
function urlAround(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 4096), index);
  const after = text.slice(index, index + 4096);
  const startOffset = Math.max(-1, ...[" ", "\n", "\t", '"', "'", "`", "<", ">"].map((char) => before.lastIndexOf(char))) + 1;
  const endOffset = after.search(URL_END);
  return before.slice(startOffset) + (endOffset < 0 ? after : after.slice(0, endOffset));
}
