import type { SecretKind } from "./secret-finding";

const PASSWORD_WORDS = new Set(["password", "passwd", "pwd", "pass", "passphrase", "pw"]);
const SECRET_WORDS = new Set(["secret", "token", "apikey", "credential", "credentials"]);
// `key` alone is too common (`key: name`); it counts only with a word that makes it secret.
const KEY_QUALIFIERS = new Set([
  "api", "secret", "private", "access", "signing", "encryption", "master", "account", "client",
  "app", "service", "license", "auth", "storage", "subscription", "webhook", "deploy", "shared",
]);

/**
 * What a variable, field or flag name says about its value: `password-assignment` for password
 * names, `secret-assignment` (or a provider kind) for tokens and keys, null for anything else.
 * Only the last word counts, so `token_id`, `password_hint` and `max_tokens` stay out.
 */
export function classifySecretKey(key: string): SecretKind | null {
  const words = splitWords(key);
  const last = words.at(-1) ?? "";
  const previous = words.at(-2) ?? "";
  if (PASSWORD_WORDS.has(last) || last.endsWith("password")) return "password-assignment";
  // A legacy `.npmrc` `_auth=` holds base64 of `user:password`; so does Docker's config.json `"auth"`.
  if (key === "_auth") return "npm-token";
  if (key === "auth" && words.length === 1) return "basic-auth-password";
  const isSecret =
    SECRET_WORDS.has(last) ||
    (last === "pat" && words.length > 1) ||
    /(?:secret|token|apikey)$/.test(last) ||
    (last === "key" && KEY_QUALIFIERS.has(previous)) ||
    (last === "base" && previous === "key" && words.includes("secret"));
  return isSecret ? providerKind(key, words) : null;
}

function providerKind(key: string, words: string[]): SecretKind {
  const joined = words.join("_");
  if (joined.includes("aws") && joined.includes("secret")) return "aws-secret-access-key";
  if (/(?:^|_)(?:account|shared_access)_key$/.test(joined) || /azure|storage_key/.test(joined)) return "azure-storage-key";
  if (joined.includes("twilio")) return "twilio-auth-token";
  // The provider's name beside a token names its kind in whatever format it has (older ones too).
  if (/(?:^|_)(?:github|gh)_/.test(joined) && /(?:token|pat)$/.test(joined)) return "github-classic-token";
  if (joined.includes("gitlab") && /(?:token|pat)$/.test(joined)) return "gitlab-token";
  if (joined.includes("slack") && joined.endsWith("token")) return "slack-token";
  if (joined.includes("sendgrid")) return "sendgrid-api-key";
  if (joined.includes("mailgun")) return "mailgun-api-key";
  if (joined.includes("vault") && joined.endsWith("token")) return "vault-token";
  // `.npmrc`: `//registry.npmjs.org/:_authToken=…`
  if (key === "_authToken" || joined.includes("npm")) return "npm-token";
  return "secret-assignment";
}

function splitWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}
