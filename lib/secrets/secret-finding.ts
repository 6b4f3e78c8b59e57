/**
 * What the secret scanners report. The kind becomes part of the redaction marker
 * (`[REDACTED:<kind>]`), so kinds are stable kebab-case names.
 */
export const SECRET_KINDS = [
  "aws-access-key-id",
  "aws-secret-access-key",
  "github-classic-token",
  "github-fine-grained-token",
  "github-app-token",
  "gitlab-token",
  "slack-bot-token",
  "slack-user-token",
  "slack-token",
  "slack-webhook-url",
  "stripe-live-key",
  "stripe-test-key",
  "stripe-restricted-key",
  "stripe-webhook-secret",
  "openai-api-key",
  "anthropic-api-key",
  "google-api-key",
  "gcp-service-account-key",
  "azure-storage-key",
  "npm-token",
  "pypi-token",
  "sendgrid-api-key",
  "twilio-api-key",
  "twilio-auth-token",
  "mailgun-api-key",
  "datadog-api-key",
  "datadog-app-key",
  "huggingface-token",
  "docker-pat",
  "vault-token",
  "jwt",
  "shopify-token",
  "linear-api-key",
  "notion-token",
  "grafana-token",
  "onepassword-token",
  "vercel-token",
  "databricks-token",
  "figma-token",
  "groq-api-key",
  "age-secret-key",
  "azure-sas-signature",
  "aws-presigned-url-signature",
  "gcs-signed-url-signature",
  "private-key",
  "url-password",
  "jdbc-password",
  "basic-auth-password",
  "bearer-token",
  "password-assignment",
  "secret-assignment",
  "high-entropy-secret",
  "base64-encoded-secret",
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

/**
 * One secret in a text. `start`/`end` are UTF-16 offsets of the secret value itself (not the
 * variable name); `line`/`column` are 1-based and point at `start`. The value is never carried:
 * `preview` is all a caller may show.
 */
export type SecretFinding = {
  kind: SecretKind;
  start: number;
  end: number;
  line: number;
  column: number;
  preview: string;
};

/**
 * A range a rule found. `isBounded` is false when the rule could see where the secret starts but
 * not where it ends (an unterminated private key block): redaction then blocks instead of
 * replacing a part of it. `rank` breaks ties when ranges overlap: the more specific rule names it.
 */
export type SecretRange = {
  kind: SecretKind;
  start: number;
  end: number;
  isBounded: boolean;
  rank: number;
};

/** Rank of a rule that recognises a provider's own token format. */
export const RANK_FORMAT = 3;
/** Rank of a rule that recognises a structure (URL userinfo, header, key block). */
export const RANK_STRUCTURE = 2;
/** Rank of a keyword assignment (`password = …`). */
export const RANK_ASSIGNMENT = 1;
/** Rank of a high-entropy value that merely sits next to a secret-ish word. */
export const RANK_ENTROPY = 0;
