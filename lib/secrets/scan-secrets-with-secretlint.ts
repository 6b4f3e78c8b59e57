import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from "@secretlint/types";
import { findSecretRanges, locateSecretRanges, toSecretFinding } from "./detect-secrets";
import { isPlaceholderToken } from "./is-placeholder-value";
import { mergeSecretRanges } from "./merge-secret-ranges";
import { runSecretlint } from "./run-secretlint";
import { RANK_FORMAT, type SecretFinding, type SecretKind, type SecretRange } from "./secret-finding";

// Issue 4: a note must not switch scanning off with `secretlint-disable`, so the rule that reads
// those comments is left out of the preset rather than trusting the text to be comment-free.
const FILTER_COMMENTS_RULE = "@secretlint/secretlint-rule-filter-comments";
const AWS_RULE = "@secretlint/secretlint-rule-aws";

const SECRETLINT_CONFIG: SecretLintCoreConfig = {
  rules: recommendedRules
    .filter((rule) => rule.meta.id !== FILTER_COMMENTS_RULE)
    // AWS access key ids are off by default in the preset; issue 4 wants them.
    .map((rule) => ({ id: rule.meta.id, rule, options: rule.meta.id === AWS_RULE ? { enableIDScanRule: true } : {} })),
};

const KIND_BY_MESSAGE_ID: Record<string, SecretKind> = {
  AWSAccessKeyID: "aws-access-key-id",
  AWSSecretAccessKey: "aws-secret-access-key",
  GITHUB_TOKEN: "github-classic-token",
  GITLAB_PERSONAL_ACCESS_TOKEN: "gitlab-token",
  SLACK_TOKEN: "slack-token",
  IncomingWebhook: "slack-webhook-url",
  OPENAI_TOKEN: "openai-api-key",
  ANTHROPIC_API_KEY: "anthropic-api-key",
  NPM_ACCESS_TOKEN: "npm-token",
  Npmrc_authToken: "npm-token",
  SENDGRID_KEY: "sendgrid-api-key",
  HUGGINGFACE_USER_ACCESS_TOKEN: "huggingface-token",
  DOCKER_PERSONAL_ACCESS_TOKEN: "docker-pat",
  PrivateKey: "private-key",
  PrivateKeyJSON: "gcp-service-account-key",
  BasicAuth: "url-password",
  MongoDBConnection: "url-password",
  MySQLConnection: "url-password",
  PostgreSQLConnection: "url-password",
};
// The preset reports an AWS secret key from the start of its variable name; the value is the
// 40-character run after the separator.
const AWS_SECRET_VALUE = /[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/;

/**
 * Our rules plus secretlint's recommended preset (Shopify, Linear, Notion, Grafana, 1Password,
 * Vercel, Databricks, Figma, Groq, …). Asynchronous and roughly an order of magnitude slower than
 * `scanSecrets`: use it for audits (`teammem secrets`), and `scanSecrets` on every write.
 */
export async function scanSecretsWithSecretlint(text: string): Promise<SecretFinding[]> {
  const ownRanges = findSecretRanges(text);
  const messages = await runSecretlint(text, SECRETLINT_CONFIG);
  const lintRanges = messages
    .map((message) => toRange(text, message))
    // The preset reports `ghp_XXXX…` and `AKIA…EXAMPLE`; issue 4 says those are not secrets.
    .filter((range) => !overlapsAny(range, ownRanges) && !isPlaceholderToken(text.slice(range.start, range.end)));
  return locateSecretRanges(text, mergeSecretRanges([...ownRanges, ...lintRanges])).map(toSecretFinding);
}

function toRange(text: string, message: SecretLintCoreResultMessage): SecretRange {
  let [start, end] = message.range;
  // If the value cannot be found, the reported range stays: covering a name beats missing a key.
  const value = message.messageId === "AWSSecretAccessKey" ? AWS_SECRET_VALUE.exec(text.slice(start, start + 200)) : null;
  if (value?.[1]) {
    start += value.index + value[0].length - value[1].length;
    end = start + value[1].length;
  }
  const kind = KIND_BY_MESSAGE_ID[message.messageId] ?? `secretlint-${message.ruleId.replace(/^.*secretlint-rule-/, "")}`;
  return { kind, start, end, isBounded: true, rank: RANK_FORMAT };
}

function overlapsAny(range: SecretRange, others: SecretRange[]): boolean {
  return others.some((other) => range.start < other.end && other.start < range.end);
}
