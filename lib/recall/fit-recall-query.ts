/** The longest recall query the server takes, in UTF-16 code units (what a JavaScript string's length counts). */
export const MAX_RECALL_QUERY_LENGTH = 4000;

/**
 * A prompt cut to what the recall route takes: its beginning, where a request usually says what
 * it is about (pasted logs and files come after). Without this a long prompt got a 400, and the
 * hook, failing open, gave that prompt no memories at all. A cut never splits a surrogate pair.
 */
export function fitRecallQuery(prompt: string): string {
  const trimmed = prompt.trim();
  if (trimmed.length <= MAX_RECALL_QUERY_LENGTH) return trimmed;
  const cut = trimmed.slice(0, MAX_RECALL_QUERY_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return (last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut).trimEnd();
}
