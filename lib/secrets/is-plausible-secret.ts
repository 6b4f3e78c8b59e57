import { isBase64OfPlainText } from "./is-base64-of-plain-text";
import { isIllustrativeToken } from "./is-published-example-token";
import { isHighEntropy } from "./measure-entropy";

// Type names and literals that follow `password:` / `token:` in code and schemas.
const TYPE_OR_LITERAL = new Set([
  "string", "number", "boolean", "bool", "str", "int", "bytes", "any", "unknown", "object",
  "true", "false", "optional", "required", "secretstr", "string[]", "text", "varchar",
]);
// `config.db.password`, `secrets.TOKEN`, `self.token`, `env["X"]`, `getToken()`.
const MEMBER_ACCESS = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[[^\]]*\])+(?:\(.*)?$/;
const CODE_START = /^(?:[${[(<]|%[{(])|\($/;
// A YAML tag, anchor or alias (`!vault`, `&defaults`, `*db_password`), a decorator (`@env`) or a
// Windows variable (`%APPDATA%`) is a sigil and a name. With anything else after the sigil
// (`!Secr3t#2024`, `@dm1n!2024`) the value is a password that happens to start with
// punctuation, as .env passwords often do.
const SIGIL_NAME = /^[!&*@%]!?[A-Za-z_][\w.-]*%?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBRESOURCE_INTEGRITY = /^sha(?:1|256|384|512)-/;
// Stripe publishable keys are meant to be shipped to browsers.
const PUBLISHABLE_KEY = /^pk_(?:live|test)_/;
const JOINED_WORDS = /^[A-Za-z]+(?:[-_.][A-Za-z]+)*$/;

/** Whether an unquoted value is code (a reference, a call, a type) rather than a literal. */
export function isCodeReference(value: string): boolean {
  return (
    TYPE_OR_LITERAL.has(value.toLowerCase()) ||
    CODE_START.test(value) ||
    SIGIL_NAME.test(value) ||
    value.includes("(") ||
    MEMBER_ACCESS.test(value)
  );
}

/** Whether a value that is not a placeholder has the shape of something no one should share. */
export function isNonSecretShape(value: string): boolean {
  return (
    UUID.test(value) ||
    SUBRESOURCE_INTEGRITY.test(value) ||
    PUBLISHABLE_KEY.test(value) ||
    value.includes("://") ||
    isBase64OfPlainText(value)
  );
}

/**
 * A password value: any quoted literal of four or more characters, or an unquoted one with a
 * digit or a symbol (`hunter2`, `Tr0ub4dor&3`) — a bare word after `password:` is usually prose.
 */
export function isPlausiblePassword(value: string, isQuoted: boolean): boolean {
  if (value.length < 4 || isNonSecretShape(value)) return false;
  if (/\s/.test(value)) return isQuoted && isSpacedPassword(value);
  if (isQuoted) return true;
  if (isCodeReference(value)) return false;
  return /[0-9]/.test(value) || /[^A-Za-z0-9]/.test(value);
}

/**
 * A quoted password with spaces (`SMTP_PASSWORD="p@ss w0rd!"`, a passphrase with a number): a
 * few words, one holding a digit or a symbol. More words, or letters only, read as a sentence
 * about the password ("stored in 1Password under Staging DB"), which is no secret.
 */
function isSpacedPassword(value: string): boolean {
  if (!/^\S+(?: \S+){1,3}$/.test(value)) return false;
  return /[0-9]/.test(value) || /[^A-Za-z0-9 ]/.test(value);
}

/** A token or key value: long enough, mixes letters and digits or is random, not joined words. */
export function isPlausibleToken(value: string, isQuoted: boolean): boolean {
  if (value.length < 8 || /\s/.test(value) || isNonSecretShape(value)) return false;
  if (!isQuoted && isCodeReference(value)) return false;
  if (JOINED_WORDS.test(value) || isIllustrativeToken(value)) return false;
  const mixesLettersAndDigits = /[A-Za-z]/.test(value) && /[0-9]/.test(value);
  return mixesLettersAndDigits || (value.length >= 16 && isHighEntropy(value));
}
