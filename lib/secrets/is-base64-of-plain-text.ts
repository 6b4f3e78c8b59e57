const BASE64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Whether a value is base64 of readable text (`aGVsbG8gd29ybGQ=`): people paste those in notes
 * about encodings, and a key or token never decodes to words and spaces.
 */
export function isBase64OfPlainText(value: string): boolean {
  const decoded = decodeBase64Text(value);
  return decoded !== null && /[A-Za-z]{3,}[ ,.:;!?-]/.test(decoded);
}

/** The text a base64 (or base64url) value decodes to, when nearly all of it is readable; else null. */
export function decodeBase64Text(value: string): string | null {
  if (value.length < 8 || !BASE64.test(value)) return null;
  const decoded = Buffer.from(value, value.includes("-") || value.includes("_") ? "base64url" : "base64").toString("latin1");
  if (decoded.length === 0) return null;
  let readable = 0;
  for (let i = 0; i < decoded.length; i++) {
    const code = decoded.charCodeAt(i);
    if ((code >= 0x20 && code < 0x7f) || code === 0x0a || code === 0x09) readable++;
  }
  return readable / decoded.length > 0.95 ? decoded : null;
}
