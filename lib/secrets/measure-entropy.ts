/** Shannon entropy in bits per character; random base62 of length n approaches log2(min(n, 62)). */
export function measureEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / value.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/**
 * Whether a value looks machine-generated rather than written by a person. The bar scales with
 * length because a short string cannot reach a high entropy however random it is.
 */
export function isHighEntropy(value: string): boolean {
  const threshold = Math.min(4, Math.log2(value.length) - 0.6);
  return measureEntropy(value) >= threshold;
}

// English-looking pieces: a long share of them means identifiers or paths, not random output.
const WORD_PIECES = /[A-Z]?[a-z]{3,}/g;

/** Whether more than half of a value is English-looking pieces (`TeamMemoryAccessToken`, `snake_case_name`). */
export function readsAsWords(value: string): boolean {
  const wordLength = (value.match(WORD_PIECES) ?? []).reduce((sum, piece) => sum + piece.length, 0);
  return wordLength / value.length > 0.5;
}
