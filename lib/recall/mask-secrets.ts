import { escapeControlCharacters } from "../memdir/escape-control-characters";
import { maskSecretsForDisplay, maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { redactSecrets } from "../secrets/redact-secrets";

const WITHHELD = "[withheld: contains a secret]";

/**
 * Recall masks the same ~200 descriptions and the same few injections on every prompt, and
 * scanning them was over half of a recall's CPU. A text's masked form never changes, so recent
 * ones are remembered (bounded, oldest forgotten first).
 */
const MEMO_SIZE = 5_000;

function remembered(mask: (text: string) => string): (text: string) => string {
  const memo = new Map<string, string>();
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    const masked = mask(text);
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value ?? "");
    memo.set(text, masked);
    return masked;
  };
}

/** maskSecrets, remembered for texts seen recently (descriptions in a recall manifest). */
export const maskSecretsRemembered = remembered((text) => maskSecrets(text));

/**
 * A file name as the selector model reads it in the manifest: a member's own file may be named
 * after a token (`reference_ghp_….md`), which the text rules read as part of a word.
 */
export const maskNameRemembered = remembered((name) => maskSecretsInQuotedNames(name));

/** maskSecretsForDisplay, remembered (the injections and descriptions recall answers with). */
export const maskForDisplayRemembered = remembered((text) => maskSecretsForDisplay(text));

/**
 * "Nothing secret goes to the model": text with a secret finding is sent with the secret replaced
 * by `[REDACTED:<kind>]`. When the scanner cannot tell where a secret ends (an unterminated key
 * block), the whole text is withheld rather than risk sending part of it.
 */
export function maskSecrets(text: string): string {
  const redaction = redactSecrets(text);
  if (redaction.blocked.length > 0) return WITHHELD;
  return redaction.text;
}

/** The longest model-answered name a recall answer shows; a memory's path is far shorter. */
export const MAX_SHOWN_MODEL_NAME = 200;

// Beyond escapeControlCharacters' set, everything that shows as nothing: format characters
// (zero-width, LRM/RLM/ALM, BOM, soft hyphen, word joiner, tag characters), other default-ignorable
// ones, lone surrogates, private-use and unassigned code points. A model's invented name may
// smuggle text in tag characters; the store refuses all of these in names (review.md).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * A name the selector model answered, as a recall answer may show it (the `dropped` list): a
 * name that is no memory is whatever the model wrote, and a model can echo a credential from the
 * prompt. Masked first (a credential glued to a name's `_` included), then escaped (a newline
 * or ESC cannot start a line in a terminal, an invisible character shows as `\u200b`), then cut
 * to 200 characters, never inside a pair.
 */
export function showModelName(name: string): string {
  const shown = escapeControlCharacters(maskSecretsInQuotedNames(name)).replace(INVISIBLE, escapeCodePoint);
  if (shown.length <= MAX_SHOWN_MODEL_NAME) return shown;
  const last = shown.charCodeAt(MAX_SHOWN_MODEL_NAME - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_SHOWN_MODEL_NAME - 1 : MAX_SHOWN_MODEL_NAME;
  return `${shown.slice(0, end)}…`;
}

function escapeCodePoint(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  // As escapeControlCharacters writes them (`\x85`), and `\u{e0041}` beyond the first plane.
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}
