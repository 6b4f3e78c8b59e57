/**
 * The issue-4 corpus, built at test time from a seed: realistic live-format tokens are never
 * committed (checksummed fakes can trip push protection on git hosts), only their recipes.
 */
import type { SecretKind } from "@/lib/secrets/secret-finding";

export type ExpectedSecret = { kind: SecretKind; start: number; end: number; value: string };
export type PositiveNote = { name: string; text: string; secrets: ExpectedSecret[] };
export type NegativeNote = { name: string; text: string };

/** mulberry32: tiny, deterministic, good enough to make tokens look random. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const DIGITS = "0123456789";
const ALNUM = LOWER + UPPER + DIGITS;
const HEX = "0123456789abcdef";
const BASE64 = ALNUM + "+/";
const URL_SAFE = ALNUM + "_-";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

export type Chars = (alphabet: string, length: number) => string;

export function createChars(random: () => number): Chars {
  return (alphabet, length) => {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
    return out;
  };
}

/** An AWS access key id body: upper case and the digits 2-7, with at least one of each. */
function awsKeyId(chars: Chars): string {
  return `AKIA${chars(UPPER, 1)}${chars("234567", 1)}${chars(UPPER + "234567", 14)}`;
}

/** A value that mixes letters and digits whatever the seed draws. */
function mixed(chars: Chars, alphabet: string, length: number): string {
  return chars(UPPER, 1) + chars(DIGITS, 1) + chars(LOWER, 1) + chars(alphabet, length - 3);
}

function base64Url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

function pemBody(chars: Chars, start: string, lines: number, newline: string): string {
  const body = start + chars(BASE64, 64 * lines - start.length);
  return (body.match(/.{1,64}/g) ?? []).join(newline);
}

type Recipe = { kind: SecretKind; value: (chars: Chars) => string; contexts: Array<[string, string]> };

/** 40 hex digits with a letter and a digit whatever the seed draws: GitHub's tokens before 2021. */
function mixedHex(chars: Chars, length: number): string {
  return chars("abcdef", 1) + chars(DIGITS, 1) + chars(HEX, length - 2);
}

/** A .env password that opens with punctuation and holds `:`, `#` and `&`, as generated ones do. */
const envPassword = (chars: Chars) => `${chars("!@*%", 1)}${chars(ALNUM, 4)}:${chars(LOWER, 1)}${chars(DIGITS, 2)}#${chars(ALNUM, 3)}&${chars(DIGITS, 2)}`;

const password = (chars: Chars) => `${chars(UPPER, 1)}${chars(LOWER, 5)}${chars(DIGITS, 3)}${chars("!#%*@^~", 2)}${chars(ALNUM, 2)}`;
const privateKey = (label: string, start: string) => (chars: Chars) =>
  `-----BEGIN ${label}-----\n${pemBody(chars, start, 4, "\n")}\n-----END ${label}-----`;

// Each kind with two or more places a person would paste it into a memory.
const RECIPES: Recipe[] = [
  { kind: "aws-access-key-id", value: awsKeyId, contexts: [["The CI user is `", "` in the prod account."], ["aws_access_key_id = ", "\n"]] },
  { kind: "aws-secret-access-key", value: (c) => mixed(c, BASE64, 40), contexts: [["aws_secret_access_key = ", "\n"], ['export AWS_SECRET_ACCESS_KEY="', '"\n']] },
  { kind: "github-classic-token", value: (c) => `ghp_${c(ALNUM, 36)}`, contexts: [["Use ", " for the release bot."], ["GITHUB_TOKEN=", "\n"]] },
  { kind: "github-classic-token", value: (c) => `gho_${c(ALNUM, 36)}`, contexts: [["OAuth app token: ", ""]] },
  { kind: "github-fine-grained-token", value: (c) => `github_pat_${c(ALNUM, 22)}_${c(ALNUM, 59)}`, contexts: [["The read-only PAT `", "` expires 2026-09-01."], ["token: ", "\n"]] },
  { kind: "github-app-token", value: (c) => `ghs_${c(ALNUM, 36)}`, contexts: [["Installation token ", " (1h)."], ['"token": "', '"']] },
  { kind: "gitlab-token", value: (c) => `glpat-${c(URL_SAFE, 20)}`, contexts: [["GitLab: ", ""], ["CI_JOB_TOKEN_OVERRIDE=", "\n"]] },
  { kind: "slack-bot-token", value: (c) => `xoxb-${c(DIGITS, 11)}-${c(DIGITS, 12)}-${c(ALNUM, 24)}`, contexts: [["The bot posts with ", "."], ["SLACK_BOT_TOKEN: ", "\n"]] },
  { kind: "slack-user-token", value: (c) => `xoxp-${c(DIGITS, 11)}-${c(DIGITS, 11)}-${c(DIGITS, 12)}-${c(HEX, 32)}`, contexts: [["my user token: ", ""], ["`", "`"]] },
  { kind: "slack-token", value: (c) => `xapp-1-A${c(UPPER + DIGITS, 10)}-${c(DIGITS, 13)}-${c(HEX, 64)}`, contexts: [["Socket mode app token ", ""], ["SLACK_APP_TOKEN=", "\n"]] },
  { kind: "slack-webhook-url", value: (c) => `https://hooks.slack.com/services/T${c(UPPER + DIGITS, 8)}/B${c(UPPER + DIGITS, 10)}/${c(ALNUM, 24)}`, contexts: [["Alerts go to ", " (#oncall)."], ["webhook: ", "\n"]] },
  { kind: "stripe-live-key", value: (c) => `sk_live_${c(ALNUM, 99)}`, contexts: [["Live Stripe key: ", ""], ["STRIPE_SECRET_KEY=", "\n"]] },
  { kind: "stripe-test-key", value: (c) => `sk_test_${c(ALNUM, 24)}`, contexts: [["For staging use ", "."], ["stripe.api_key = '", "'"]] },
  { kind: "stripe-restricted-key", value: (c) => `rk_live_${c(ALNUM, 24)}`, contexts: [["The reporting job uses the restricted key ", "."], ["- ", "\n"]] },
  { kind: "stripe-webhook-secret", value: (c) => `whsec_${c(ALNUM, 32)}`, contexts: [["Signing secret for the endpoint is ", "."], ["STRIPE_WEBHOOK_SECRET=", "\n"]] },
  { kind: "openai-api-key", value: (c) => `sk-proj-${c(URL_SAFE, 80)}`, contexts: [["OPENAI_API_KEY=", "\n"], ["The eval harness calls OpenAI with ", "."]] },
  { kind: "openai-api-key", value: (c) => `sk-${c(ALNUM, 20)}T3BlbkFJ${c(ALNUM, 20)}`, contexts: [["legacy key ", ""]] },
  { kind: "anthropic-api-key", value: (c) => `sk-ant-api03-${c(URL_SAFE, 93)}AA`, contexts: [["ANTHROPIC_API_KEY=", "\n"], ["Recall runs on ", " (team key)."]] },
  { kind: "google-api-key", value: (c) => `AIza${c(URL_SAFE, 35)}`, contexts: [["Maps key ", " is restricted to our domain."], ["GOOGLE_API_KEY: ", "\n"]] },
  {
    kind: "gcp-service-account-key",
    value: (c) => `-----BEGIN PRIVATE KEY-----\\n${pemBody(c, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 5, "\\n")}\\n-----END PRIVATE KEY-----`,
    contexts: [['```json\n{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key": "', '\\n",\n  "client_email": "ci@acme-prod.iam.gserviceaccount.com"\n}\n```\n']],
  },
  { kind: "azure-storage-key", value: (c) => `${mixed(c, BASE64, 86)}==`, contexts: [["DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=", ";EndpointSuffix=core.windows.net"], ["AZURE_STORAGE_KEY=", "\n"]] },
  { kind: "npm-token", value: (c) => `npm_${c(ALNUM, 36)}`, contexts: [["//registry.npmjs.org/:_authToken=", "\n"], ["Publish with ", "."]] },
  { kind: "pypi-token", value: (c) => `pypi-AgEIcHlwaS5vcmc${c(URL_SAFE, 70)}`, contexts: [["password = ", "\n"], ["twine upload uses ", ""]] },
  { kind: "sendgrid-api-key", value: (c) => `SG.${c(URL_SAFE, 10)}-${c(URL_SAFE, 11)}.${c(URL_SAFE, 20)}-${c(URL_SAFE, 22)}`, contexts: [["Mail goes out via ", "."], ["SENDGRID_API_KEY=", "\n"]] },
  { kind: "twilio-api-key", value: (c) => `SK${c(HEX, 32)}`, contexts: [["Twilio API key sid/secret: ", ""], ["TWILIO_API_KEY=", "\n"]] },
  { kind: "twilio-auth-token", value: (c) => mixed(c, HEX, 32).toLowerCase(), contexts: [["TWILIO_AUTH_TOKEN=", "\n"], ['twilio.auth_token: "', '"']] },
  { kind: "mailgun-api-key", value: (c) => `key-${c(HEX, 32)}`, contexts: [["Mailgun ", ""], ["MAILGUN_KEY = ", "\n"]] },
  { kind: "huggingface-token", value: (c) => `hf_${c(LOWER + UPPER, 34)}`, contexts: [["Model pulls use ", "."], ["HF_TOKEN=", "\n"]] },
  { kind: "docker-pat", value: (c) => `dckr_pat_${c(URL_SAFE, 27)}`, contexts: [["docker login -u acmeci -p ", ""], ["The registry PAT is ", "."]] },
  { kind: "vault-token", value: (c) => `hvs.${c(URL_SAFE, 90)}`, contexts: [["VAULT_TOKEN=", "\n"], ["root token (rotate!) ", ""]] },
  {
    kind: "jwt",
    value: (c) => `${base64Url('{"alg":"HS256","typ":"JWT"}')}.${base64Url(`{"sub":"${c(DIGITS, 8)}","role":"admin"}`)}.${c(URL_SAFE, 43)}`,
    contexts: [["Admin session: ", ""], ["Authorization: Bearer ", "\n"]],
  },
  { kind: "private-key", value: privateKey("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA"), contexts: [["```\n", "\n```\n"]] },
  { kind: "private-key", value: privateKey("EC PRIVATE KEY", "MHcCAQEEI"), contexts: [["Deploy key:\n", "\n"]] },
  { kind: "private-key", value: privateKey("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEF"), contexts: [["  ", "\n"]] },
  { kind: "private-key", value: privateKey("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"), contexts: [["~/.ssh/id_ed25519:\n", "\n"]] },
  { kind: "url-password", value: (c) => `${c(ALNUM, 4)}@${c(ALNUM, 3)}#${c(ALNUM, 3)}!`, contexts: [["DATABASE_URL=postgres://app:", "@db.internal:5432/app\n"], ["mongodb+srv://svc:", "@cluster0.ab1cd.mongodb.net/prod"]] },
  { kind: "url-password", value: (c) => mixed(c, ALNUM, 16), contexts: [["Cache at redis://:", "@cache.internal:6379/0."], ["mysql://root:", "@10.0.0.5/app"], ["git clone https://deploy:", "@git.acme.io/infra.git"]] },
  { kind: "jdbc-password", value: (c) => `${c(ALNUM, 5)}!${c(ALNUM, 5)}@`, contexts: [["jdbc:mysql://db.acme.io:3306/app?user=app&password=", "&useSSL=true"], ["jdbc:sqlserver://db;user=sa;password=", ";encrypt=true"]] },
  { kind: "basic-auth-password", value: (c) => `${c(ALNUM, 6)}$${c(ALNUM, 4)}!`, contexts: [["curl -u deploy:", " https://api.acme.io/v1/jobs"], ['curl --user "ops:', '" -X POST https://ci.acme.io']] },
  { kind: "basic-auth-password", value: (c) => Buffer.from(`deploy:${c(ALNUM, 12)}`).toString("base64"), contexts: [["Authorization: Basic ", "\n"]] },
  { kind: "bearer-token", value: (c) => `${c(ALNUM, 20)}.${c(ALNUM, 20)}`, contexts: [["curl -H 'Authorization: Bearer ", "' https://api.acme.io"]] },
  { kind: "password-assignment", value: password, contexts: [["password: ", "\n"], ['DB_PASSWORD="', '"\n'], ['{"user": "admin", "password": "', '"}'], ["psql --password ", " -h db"], ["  SMTP_PASS=", "\n"]] },
  { kind: "secret-assignment", value: (c) => mixed(c, ALNUM, 32), contexts: [["client_secret: ", "\n"], ["SESSION_SECRET=", "\n"], ['api_key = "', '"'], ["signingKey := \"", '"']] },
  { kind: "high-entropy-secret", value: (c) => mixed(c, ALNUM, 32), contexts: [["The staging signing key is ", " until the rotation."], ["Webhook secret for acme.io ", ""], ["token ", " expires Friday."]] },
];

// Issue 10, drawn from their own random stream so the notes above keep their values.
const LATER_RECIPES: Recipe[] = [
  // Issue 10: passwords stated in a sentence, not assigned.
  {
    kind: "password-assignment",
    value: password,
    contexts: [
      ["The staging db password is ", " (rotate monthly)."],
      ["pw for the admin console is ", "\n"],
      ["The password for the VPN is now ", ", change it in March."],
      ["Log in with password ", " for the admin account."],
      ["passphrase for the deploy key: ", "\n"],
      ["creds are admin:", "\n"],
      ["login: deploy / password ", "\n"],
    ],
  },
  // Issue 10: .env values with punctuation, leading and inside, quoted and not.
  {
    kind: "password-assignment",
    value: envPassword,
    contexts: [["DB_PASSWORD=", "\n"], ['DB_PASSWORD="', '"\n'], ["DB_PASSWORD='", "'\n"], ["export MYSQL_ROOT_PASSWORD=", "\n"], ["PGPASSWORD=", " psql -h db.internal\n"], ["admin password = ", "\n"], ["REDIS_PASSWORD=", " # staging\n"]],
  },
  // Issue 10: older formats of providers already covered, known by the words around them.
  { kind: "github-classic-token", value: (c) => mixedHex(c, 40), contexts: [["GITHUB_TOKEN=", "\n"], ["My old GitHub token is ", " (made in 2019)."], ["github oauth token: ", "\n"], ["GH_PAT=", "\n"]] },
  { kind: "twilio-auth-token", value: (c) => mixedHex(c, 32), contexts: [["The Twilio auth token is ", "."]] },
  { kind: "gitlab-token", value: (c) => mixed(c, ALNUM, 20), contexts: [["our GitLab token is ", " (from before glpat)."], ["GITLAB_TOKEN=", "\n"]] },
  { kind: "npm-token", value: (c) => `${c(HEX, 8)}-${c(HEX, 4)}-4${c(HEX, 3)}-a${c(HEX, 3)}-${c(HEX, 12)}`, contexts: [["//registry.npmjs.org/:_authToken=", "\n"]] },
  { kind: "npm-token", value: (c) => Buffer.from(`deploy:${c(ALNUM, 12)}`).toString("base64"), contexts: [["_auth=", "\n"]] },
  { kind: "basic-auth-password", value: (c) => Buffer.from(`ci:${c(ALNUM, 16)}`).toString("base64"), contexts: [['{"auths": {"https://index.docker.io/v1/": {"auth": "', '"}}}']] },
  { kind: "slack-token", value: (c) => `xoxe.xoxp-1-${c(ALNUM, 100)}`, contexts: [["Rotating refresh token ", "\n"]] },
  { kind: "slack-token", value: (c) => mixed(c, ALNUM, 24), contexts: [["SLACK_TOKEN=", "\n"]] },
  { kind: "stripe-live-key", value: (c) => `sk_live_${c(ALNUM, 24)}`, contexts: [["Old Stripe key from 2017: ", "."]] },
  // A credential wrapped in base64: readable to anyone who decodes it.
  {
    kind: "base64-encoded-secret",
    value: (c) => Buffer.from(`aws_secret_access_key=${mixed(c, ALNUM, 40)}`).toString("base64"),
    contexts: [["Decode this: ", "\n"], ["The staging config blob is ", " (base64)."]],
  },
  { kind: "base64-encoded-secret", value: (c) => Buffer.from(`password: ${password(c)}\n`).toString("base64url"), contexts: [["creds (base64url) ", "\n"]] },
  // A value that ends the sentence: its full stop is the sentence's, not part of a file name. A
  // fixed value: about 1 % of random ones read as English to the entropy rule (find-high-entropy-values).
  {
    kind: "high-entropy-secret",
    value: () => "Tq9ZpW4x7Rt2Yx8Lk3Mn6Bv1Cx5Hj0Dg2Fs4Ae7U",
    contexts: [["The AWS secret access key for the artifact bucket is ", "."], ["The deploy key is ", ". Rotate it monthly."], ["signing secret ", ".\n"]],
  },
  // Datadog keys: 32 (API) and 40 (application) hex digits, known only by the words around them.
  { kind: "datadog-api-key", value: (c) => mixedHex(c, 32), contexts: [["Datadog API key: ", "\n"], ["DD_API_KEY=", "\n"], ["The datadog api key for staging is ", "."]] },
  { kind: "datadog-app-key", value: (c) => mixedHex(c, 40), contexts: [["DD_APP_KEY=", "\n"], ["The Datadog application key for dashboards is ", "."]] },
  // A credential cut in pieces by a line wrap or markdown emphasis: the range is the whole of it,
  // from its first character to its last (the markers and the line break inside included).
  {
    kind: "stripe-live-key",
    value: (c) => `sk_live_${c(ALNUM, 24)}\n${mixed(c, ALNUM, 24)}`,
    contexts: [["Sandbox key for the replay job:\n", ""], ["STRIPE_SECRET_KEY=", "\n"], ["**", "** (wrapped by the editor)"]],
  },
  { kind: "stripe-live-key", value: (c) => `sk_live_${c(ALNUM, 24)}\n  ${mixed(c, ALNUM, 24)}`, contexts: [["- live key: ", "\n- rotated monthly\n"]] },
  { kind: "stripe-live-key", value: (c) => `sk_live_${c(ALNUM, 24)}\n> ${mixed(c, ALNUM, 24)}`, contexts: [["> The replay job uses ", "\n> until March.\n"]] },
  { kind: "high-entropy-secret", value: (c) => `${mixed(c, ALNUM, 24)}\n${mixed(c, ALNUM, 20)}`, contexts: [["The staging signing key is ", "\nRotate it monthly."]] },
  {
    kind: "github-classic-token",
    value: (c) => `ghp_${c(ALNUM, 12)}**${mixed(c, ALNUM, 24)}`,
    contexts: [["The release bot token is **", " (split for readability)."], ["Use **", " for the release bot."]],
  },
  { kind: "github-classic-token", value: (c) => `ghp_${c(ALNUM, 20)}__${mixed(c, ALNUM, 16)}`, contexts: [["Release bot: __", "__ (bold)"]] },
  { kind: "github-classic-token", value: (c) => `ghp_${c(ALNUM, 36)}`, contexts: [["Release bot: __", "__\n"], ["release bot _", "_"]] },
  { kind: "stripe-live-key", value: (c) => `sk_live_${c(ALNUM, 10)}\`${mixed(c, ALNUM, 20)}`, contexts: [["Live key `", "` (do not share)."]] },
  // Ordinary text on the line after a token is not the rest of it: the range ends with the token.
  {
    kind: "github-classic-token",
    value: (c) => `ghp_${c(ALNUM, 36)}`,
    contexts: [
      ["Use ", "\nRotated2024Q1 by Ann"],
      ["GITHUB_TOKEN=", "\nREADME.md"],
      ["GITHUB_TOKEN=", "\n2026-03-05"],
      ["- ", "\n  snake_case_name2"],
      ["```\n", "\n```"],
      ["Use ", "\nv1.2.3-beta4"],
      ["> ", "\n> see the vault"],
      ["**", "**\n**Note:** rotate monthly"],
      ["Use ", "\n9c1e4b7a2d5f8e0b3c6a9d2f5e8b1c4a7d0e3f6b"],
      ["Use ", "\nThe bot posts releases."],
      ["Use ", "\n\nDeployKey2024"],
    ],
  },
];

// Bug 02: providers `teammem secrets` found through secretlint's preset and the server did not.
// Now the server's own rules; the formats are the preset's.
const PRESET_RECIPES: Recipe[] = [
  { kind: "shopify-token", value: (c) => `shpat_${c(HEX, 32)}`, contexts: [["Shop admin token for the storefront sync: ", "\n"], ["SHOPIFY_ACCESS_TOKEN=", "\n"]] },
  { kind: "shopify-token", value: (c) => `shpca_${c(HEX, 32)}`, contexts: [["custom app token ", "."]] },
  { kind: "shopify-token", value: (c) => `shppa_${c(HEX, 32)}`, contexts: [["private app password ", ""]] },
  { kind: "shopify-token", value: (c) => `shpss_${c(HEX, 32)}`, contexts: [["The app's shared secret is ", "."]] },
  { kind: "linear-api-key", value: (c) => `lin_api_${c(ALNUM, 40)}`, contexts: [["LINEAR_API_KEY=", "\n"], ["Triage bot key ", "."]] },
  { kind: "notion-token", value: (c) => `ntn_${c(DIGITS, 11)}${c(ALNUM, 35)}`, contexts: [["Notion integration: ", "\n"]] },
  { kind: "grafana-token", value: (c) => `glc_${c(ALNUM, 60)}==`, contexts: [["Grafana Cloud token ", "\n"]] },
  { kind: "grafana-token", value: (c) => `glsa_${c(ALNUM, 32)}_${c(HEX, 8)}`, contexts: [["GRAFANA_SA_TOKEN=", "\n"]] },
  { kind: "onepassword-token", value: (c) => `ops_eyJ${c(BASE64, 150)}fQ==`, contexts: [["OP_SERVICE_ACCOUNT_TOKEN=", "\n"]] },
  { kind: "vercel-token", value: (c) => `vcp_${c(ALNUM, 56)}`, contexts: [["Deploys use ", "."]] },
  { kind: "databricks-token", value: (c) => `dapi${c(HEX, 32)}`, contexts: [["Databricks PAT ", "\n"]] },
  { kind: "figma-token", value: (c) => `figd_${c(URL_SAFE, 43)}`, contexts: [["FIGMA_TOKEN=", "\n"]] },
  // The preset's BasicAuth: an OAuth token as the user of GitHub's fixed `x-oauth-basic` password.
  { kind: "github-classic-token", value: (c) => mixedHex(c, 40), contexts: [["git clone https://", ":x-oauth-basic@github.com/acme/infra.git\n"]] },
  { kind: "groq-api-key", value: (c) => `gsk_${c(ALNUM, 52)}`, contexts: [["Groq key for the evals: ", "\n"]] },
];

// Bugs 03 and 04: credentials the outside tester found missed.
const TWILIO_SID = "AC5e2b7c0d9f4a1386b2c7d0e9f4a13865"; // an account SID is public, not a secret
const GAP_RECIPES: Recipe[] = [
  {
    kind: "twilio-auth-token",
    value: (c) => mixedHex(c, 32),
    contexts: [[`Twilio account ${TWILIO_SID}, auth token `, "\n"], [`Twilio: account SID ${TWILIO_SID} / auth token `, "\n"], [`twilio sid ${TWILIO_SID} token `, "\n"]],
  },
  // An Azure SAS: the signature is what grants access; the other parameters are public.
  {
    kind: "azure-sas-signature",
    value: (c) => encodeURIComponent(`${c(BASE64, 43)}=`),
    contexts: [
      ["Upload URL: https://acmeblobs.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2027-01-01T00:00:00Z&spr=https&sig=", "\n"],
      ["Blob SAS URL: https://acme.blob.core.windows.net/c/f.csv?sp=r&st=2026-03-01T09:00:00Z&se=2026-03-02T09:00:00Z&spr=https&sv=2022-11-02&sr=b&sig=", " (expires tomorrow)"],
      ["BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2027-01-01T00:00:00Z&sig=", "\n"],
    ],
  },
  // Presigned object-store URLs: the signature grants access to the object until it expires.
  {
    kind: "aws-presigned-url-signature",
    value: (c) => mixedHex(c, 64),
    contexts: [
      ["Download link (valid 7 days): https://acme-exports.s3.eu-west-1.amazonaws.com/q3.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260301%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20260301T090000Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=", "\n"],
    ],
  },
  {
    kind: "aws-presigned-url-signature",
    value: (c) => encodeURIComponent(`${c(BASE64, 27)}=`),
    contexts: [["old style: https://acme.s3.amazonaws.com/report.pdf?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Expires=1767225600&Signature=", " (expires Jan 1)"]],
  },
  {
    kind: "gcs-signed-url-signature",
    value: (c) => mixedHex(c, 256),
    contexts: [["GCS signed URL: https://storage.googleapis.com/acme-exports/q3.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exports%40acme.iam.gserviceaccount.com%2F20260301%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20260301T090000Z&X-Goog-Expires=3600&X-Goog-SignedHeaders=host&X-Goog-Signature=", "\n"]],
  },
  // Bug 09's limits: a default password passes only on a local host, a local host only with one.
  { kind: "url-password", value: (c) => `Xk9$${mixed(c, ALNUM, 12)}`, contexts: [["postgres://app:", "@localhost:5432/app\n"], ["DATABASE_URL=postgres://postgres:", "@db:5432/app\n"]] },
  // (A default that appears nowhere else in the note, so the redaction tests can look for it.)
  { kind: "url-password", value: () => "postgres", contexts: [["amqp://app:", "@rabbitmq.acme.io:5672/ (production broker)\n"], ["mysql://root:", "@10.0.0.5:3306/app\n"]] },
  { kind: "age-secret-key", value: (c) => `AGE-SECRET-KEY-1${c(BECH32.toUpperCase(), 58)}`, contexts: [["sops age key: ", "\n"], ["# created: 2026-03-01T10:00:00Z\n", "\n"]] },
  // mysql's password flag takes its value attached (`-pSecret`); `-p secret` asks for it instead.
  {
    kind: "password-assignment",
    value: (c) => `My${mixed(c, ALNUM, 12)}`,
    contexts: [["connect with `mysql -h db1 -u report -p", " reports`"], ["mysql -h 127.0.0.1 -uroot -p", " test"], ["mysqldump -uroot -p", " --all-databases > dump.sql"], ['mysql -u app -p"', '" app_db'], ['test: ["CMD", "mysqladmin", "ping", "-uroot", "-p', '"]']],
  },
];

function frontmatter(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\ntype: reference\n---\n`;
}

/** One note per recipe context, a few in frontmatter, and a few holding several secrets. */
export function buildPositiveNotes(seed: number): PositiveNote[] {
  const chars = createChars(createRandom(seed));
  const notes = buildRecipeNotes(RECIPES, chars, "");
  notes.push(...buildFrontmatterNotes(chars), ...buildMultiSecretNotes(chars));
  notes.push(...buildRecipeNotes(LATER_RECIPES, createChars(createRandom(seed + 10)), "issue 10 "));
  notes.push(...buildRecipeNotes(PRESET_RECIPES, createChars(createRandom(seed + 20)), "bug 02 "));
  notes.push(...buildRecipeNotes(GAP_RECIPES, createChars(createRandom(seed + 30)), "bugs 03-04 "));
  return notes;
}

function buildRecipeNotes(recipes: Recipe[], chars: Chars, label: string): PositiveNote[] {
  const notes: PositiveNote[] = [];
  for (const recipe of recipes) {
    for (const [index, [before, after]] of recipe.contexts.entries()) {
      const value = recipe.value(chars);
      const head = `${frontmatter(`${recipe.kind} ${index}`, `Where the ${recipe.kind} for staging lives`)}Notes from the 2026-03-05 incident.\n\n`;
      const start = head.length + before.length;
      const text = `${head}${before}${value}${after}\n**Why:** it was pasted during the outage.\n`;
      notes.push({ name: `${label}${recipe.kind} #${index}`, text, secrets: [{ kind: recipe.kind, start, end: start + value.length, value }] });
    }
  }
  return notes;
}

function buildFrontmatterNotes(chars: Chars): PositiveNote[] {
  return [0, 1, 2].map((index) => {
    const value = `ghp_${chars(ALNUM, 36)}`;
    const head = "---\nname: Release bot\ndescription: release bot token is ";
    const text = `${head}${value}\ntype: project\n---\nRelease on Thursdays.\n`;
    return { name: `frontmatter #${index}`, text, secrets: [{ kind: "github-classic-token", start: head.length, end: head.length + value.length, value }] };
  });
}

function buildMultiSecretNotes(chars: Chars): PositiveNote[] {
  return [0, 1, 2, 3].map((index) => {
    const parts: Array<string | ExpectedSecret> = [
      frontmatter("Staging access", "How staging is reached"),
      "- DB: postgres://app:",
      { kind: "url-password", value: password(chars), start: 0, end: 0 },
      "@db.staging:5432/app\n- Stripe: ",
      { kind: "stripe-test-key", value: `sk_test_${chars(ALNUM, 24)}`, start: 0, end: 0 },
      "\n- AWS: ",
      { kind: "aws-access-key-id", value: awsKeyId(chars), start: 0, end: 0 },
      "\n- AWS secret key: ",
      { kind: "high-entropy-secret", value: mixed(chars, ALNUM, 40), start: 0, end: 0 },
      " (rotate monthly)\n",
    ];
    let text = "";
    const secrets: ExpectedSecret[] = [];
    for (const part of parts) {
      if (typeof part === "string") text += part;
      else {
        secrets.push({ ...part, start: text.length, end: text.length + part.value.length });
        text += part.value;
      }
    }
    return { name: `multi #${index}`, text, secrets };
  });
}
