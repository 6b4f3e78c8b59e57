import { findAllMatches } from "./find-all-matches";
import { isPlaceholderToken } from "./is-placeholder-value";
import { RANK_FORMAT, type SecretKind, type SecretRange } from "./secret-finding";

type FormatRule = { kind: SecretKind; body: string };
type FormatPattern = { kind: SecretKind; pattern: RegExp; literal: string };

function rule(kind: SecretKind, body: string): FormatRule {
  return { kind, body };
}

// Provider formats, from each provider's published token layout. Order does not matter: overlaps
// are merged afterwards.
const FORMAT_RULES: FormatRule[] = [
  rule("aws-access-key-id", "(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"),
  rule("github-classic-token", "gh[po]_[A-Za-z0-9]{36,255}"),
  rule("github-app-token", "gh[usr]_[A-Za-z0-9]{36,255}"),
  rule("github-fine-grained-token", "github_pat_[A-Za-z0-9_]{60,255}"),
  rule("gitlab-token", "gl(?:pat|dt|ptt|rt|cbt|oas|soat|ffct|imt|agent)-[A-Za-z0-9_\\-]{20,}(?:\\.[A-Za-z0-9_\\-]+)*"),
  rule("slack-bot-token", "xoxb-[0-9]{6,}-[0-9A-Za-z\\-]{10,}"),
  rule("slack-user-token", "xoxp-[0-9]{6,}-[0-9A-Za-z\\-]{10,}"),
  rule("slack-token", "(?:xox[aresco]|xapp)-[0-9A-Za-z\\-]{10,}"),
  // Rotating tokens and their refresh tokens (Slack token rotation): `xoxe.xoxp-1-…`, `xoxe.xoxb-1-…`.
  rule("slack-token", "xoxe\\.xox[bp]-[0-9]-[0-9A-Za-z\\-]{20,}"),
  rule("slack-webhook-url", "https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\\-]{20,}"),
  rule("stripe-live-key", "sk_live_[A-Za-z0-9]{16,247}"),
  rule("stripe-test-key", "sk_test_[A-Za-z0-9]{16,247}"),
  rule("stripe-restricted-key", "rk_(?:live|test)_[A-Za-z0-9]{16,247}"),
  rule("stripe-webhook-secret", "whsec_[A-Za-z0-9+/=]{24,}"),
  rule("anthropic-api-key", "sk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_\\-]{32,}"),
  rule("openai-api-key", "sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\\-]{20,}T3BlbkFJ[A-Za-z0-9_\\-]{20,}"),
  rule("openai-api-key", "sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{40,}"),
  rule("openai-api-key", "sk-[A-Za-z0-9]{48}"),
  rule("google-api-key", "AIza[0-9A-Za-z_\\-]{35}"),
  rule("npm-token", "npm_[A-Za-z0-9]{36}"),
  rule("pypi-token", "pypi-AgE[A-Za-z0-9_\\-]{50,}"),
  rule("sendgrid-api-key", "SG\\.[A-Za-z0-9_\\-]{16,32}\\.[A-Za-z0-9_\\-]{16,64}"),
  rule("twilio-api-key", "SK[0-9a-f]{32}"),
  rule("mailgun-api-key", "key-[0-9a-f]{32}"),
  rule("mailgun-api-key", "[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}"),
  rule("huggingface-token", "(?:hf|api_org)_[A-Za-z0-9]{30,}"),
  rule("docker-pat", "dckr_pat_[A-Za-z0-9_\\-]{24,}"),
  rule("vault-token", "hv[sbr]\\.[A-Za-z0-9_\\-]{24,}"),
  rule("jwt", "eyJ[A-Za-z0-9_\\-]{8,}\\.ey[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{16,}"),
  // Bug 02: the providers only secretlint's recommended preset knew, with the preset's formats,
  // so that the server finds what `teammem secrets` finds.
  rule("shopify-token", "shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,64}"),
  rule("linear-api-key", "lin_api_[A-Za-z0-9_]{32,128}"),
  rule("notion-token", "ntn_[0-9]{11}[A-Za-z0-9]{35}"),
  rule("grafana-token", "glc_[A-Za-z0-9+/]{32,400}={0,2}"),
  rule("grafana-token", "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
  rule("onepassword-token", "ops_ey[A-Za-z0-9+/=]{100,1280}fQ={0,2}"),
  rule("vercel-token", "vc[pikar]_[A-Za-z0-9]{20,60}"),
  rule("databricks-token", "dapi[A-Fa-f0-9]{32}(?:-[0-9])?"),
  rule("figma-token", "figd_[A-Za-z0-9_\\-]{40,200}"),
  rule("groq-api-key", "gsk_[A-Za-z0-9]{52}"),
  // An age (sops) identity: bech32, 58 characters after the fixed prefix (bug 04).
  rule("age-secret-key", "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
];

function compile(before: string, after: string): FormatPattern[] {
  return FORMAT_RULES.map(({ kind, body }) => ({ kind, pattern: new RegExp(`${before}${body}${after}`, "g"), literal: leadingLiteral(body) }));
}

// The fixed start of a rule (`shp`, `AGE-SECRET-KEY-1`): a text without it skips the rule's
// regex pass, which with forty-odd rules is most of what a clean note costs. Without its last
// character when a quantifier follows (`ab?` fixes only `a`).
function leadingLiteral(body: string): string {
  const literal = /^[A-Za-z0-9_:/-]*/.exec(body)?.[0] ?? "";
  return /^[?*+{]/.test(body.slice(literal.length)) ? literal.slice(0, -1) : literal;
}

// Edges in text: a token must not be glued to more token characters, or a longer random string
// that merely contains a prefix would be cut in half.
const TEXT_PATTERNS = compile(String.raw`(?<![A-Za-z0-9_\-])`, String.raw`(?![A-Za-z0-9_\-])`);
// Edges in a file name: `_` and `-` separate its words (`reference_ghp_….md`,
// `project_AKIA…_prod.md`), so a token may start or end at one.
const NAME_PATTERNS = compile("(?<![A-Za-z0-9])", "(?![A-Za-z0-9])");

/** Tokens whose format alone identifies the provider (`ghp_…`, `sk_live_…`, `AKIA…`). */
export function findFormatTokens(text: string): SecretRange[] {
  return findWithPatterns(TEXT_PATTERNS, text);
}

/** The same tokens in a file name, where `_` and `-` are word separators, not token characters. */
export function findFormatTokensInName(name: string): SecretRange[] {
  return findWithPatterns(NAME_PATTERNS, name);
}

function findWithPatterns(patterns: FormatPattern[], text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const { kind, pattern, literal } of patterns) {
    if (!text.includes(literal)) continue;
    for (const match of findAllMatches(pattern, text)) {
      const value = match[0];
      if (isPlaceholderToken(value)) continue;
      ranges.push({ kind, start: match.index, end: match.index + value.length, isBounded: true, rank: RANK_FORMAT });
    }
  }
  return ranges;
}
