/** JSON.parse for input that may be damaged: null instead of an exception, for a schema to reject. */
export function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
