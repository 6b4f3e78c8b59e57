import { isIllustrativeToken, isPublishedExampleToken } from "./is-published-example-token";
import { measureEntropy } from "./measure-entropy";

// Values that stand in for a secret in docs and templates. Flagging them would teach users to
// ignore the scanner, so each shape here is a documented negative of issue 4.
const PLACEHOLDER_SHAPES: RegExp[] = [
  /^<[^<>]*>$/, // <your password>
  /^\$\{\{[^}]*\}\}$/, // ${{ secrets.X }}
  /^\$\{[^}]*\}$/, // ${VAR}
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, // $VAR
  /^%[A-Za-z_][A-Za-z0-9_]*%$/, // %VAR%
  /^\{\{[^}]*\}\}$/, // {{ var }}
  /^\[REDACTED(?::[a-z0-9-]+)?\]$/i, // our own marker and the common one
  /\bREDACTED\b/i,
  /^[*•·.…]+$/, // ****
  /…|\.\.\./, // a preview or a truncation: ghp_…9f2c, sk-...
  /^[xX*_-]*[xX*]{4,}[xX*_-]*$/, // xxxx, XXXX-XXXX
  /EXAMPLE/, // AWS documentation keys: AKIAIOSFODNN7EXAMPLE
  /example/i,
  /^(?:your|my|the)[-_ ]/i, // your_api_key_here
  /(?:^|[-_])(?:here|placeholder|changeme|replace[-_]?me|dummy|fake|sample)(?:$|[-_])/i,
];

const PLACEHOLDER_WORDS = new Set([
  "password",
  "passwd",
  "secret",
  "token",
  "apikey",
  "api_key",
  "none",
  "null",
  "nil",
  "undefined",
  "empty",
  "todo",
  "tbd",
  "n/a",
  "hidden",
  "masked",
  "changeme",
  "placeholder",
]);

/** Whether a candidate value is a placeholder, a template variable or an already-redacted value. */
export function isPlaceholderValue(value: string): boolean {
  if (value.trim() === "") return true;
  if (PLACEHOLDER_WORDS.has(value.toLowerCase())) return true;
  if (isOneRepeatedCharacter(value) || isPublishedExampleToken(value)) return true;
  return PLACEHOLDER_SHAPES.some((shape) => shape.test(value));
}

function isOneRepeatedCharacter(value: string): boolean {
  return value.length > 1 && value.split("").every((char) => char === value[0]);
}

// A real token body is random; `ghp_aaaa…` or `sk_live_0000…` is someone's illustration.
const MIN_TOKEN_ENTROPY = 3;

/** Whether a whole token (prefix included) is a placeholder or too regular to be real. */
export function isPlaceholderToken(token: string): boolean {
  return isPlaceholderValue(token) || measureEntropy(token) < MIN_TOKEN_ENTROPY || isIllustrativeToken(token);
}
