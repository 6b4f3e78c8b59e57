import { findAllMatches } from "./find-all-matches";
import { isPlaceholderValue } from "./is-placeholder-value";
import { RANK_STRUCTURE, type SecretRange } from "./secret-finding";

// The `sig` parameter of a shared access signature: an HMAC in (often URL-encoded) base64. It is
// the one part that grants access; `sv`, `sp`, `se`, … only describe what it grants.
const SIG_PARAM = /(?<=[?&;])sig=([A-Za-z0-9%+/=_-]{16,})/g;
// A SAS always names its storage service version (`sv=2022-11-02`): that is what tells this
// `sig` from any other query parameter of that name.
const SERVICE_VERSION = /(?:^|[?&;=])sv=\d{4}-\d{2}-\d{2}(?:[&;\s"'`<>]|$)/;
const URL_END = /[\s"'`<>]/;

/** The signature of an Azure SAS URL or `SharedAccessSignature=` connection string. */
export function findAzureSasSignatures(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  // A lookbehind pattern is not searched by its literal: skip the pass for the many texts without one.
  if (!text.includes("sig=")) return ranges;
  for (const match of findAllMatches(SIG_PARAM, text)) {
    const value = match[1] ?? "";
    if (isPlaceholderValue(decodeOrKeep(value)) || !SERVICE_VERSION.test(surroundingUrl(text, match.index))) continue;
    const start = match.index + match[0].length - value.length;
    ranges.push({ kind: "azure-sas-signature", start, end: start + value.length, isBounded: true, rank: RANK_STRUCTURE });
  }
  return ranges;
}

/** The run of URL characters around `index`, at most 2 KB each way. */
function surroundingUrl(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 2048), index);
  const after = text.slice(index, index + 2048);
  const startOffset = Math.max(...[" ", "\n", "\t", '"', "'", "`", "<", ">"].map((char) => before.lastIndexOf(char))) + 1;
  const endOffset = after.search(URL_END);
  return before.slice(startOffset) + (endOffset < 0 ? after : after.slice(0, endOffset));
}

function decodeOrKeep(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A stray `%` that is no escape: judge the value as written.
    return value;
  }
}
