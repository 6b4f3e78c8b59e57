/** Issue 4's tricky negatives: shapes that look like secrets and are not. None may be flagged. */
import { createChars, createRandom, type Chars, type NegativeNote } from "./build-secret-corpus";

const HEX = "0123456789abcdef";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function uuid(chars: Chars): string {
  return `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-a${chars(HEX, 3)}-${chars(HEX, 12)}`;
}

function pemBlock(chars: Chars, label: string): string {
  const lines = Array.from({ length: 6 }, () => chars(BASE64, 64));
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----`;
}

function base64Of(text: string): string {
  return Buffer.from(text).toString("base64");
}

function lines(chars: Chars): string[] {
  const sha = () => chars(HEX, 40);
  return [
    // git SHAs and hashes
    `Fixed in commit ${sha()} on main.`,
    `The token refresh bug was fixed in ${sha()}.`,
    `Key change landed as ${chars(HEX, 7)} (see PR #412).`,
    `sha256: ${chars(HEX, 64)}`,
    `checksum = "${chars(HEX, 64)}"`,
    `image: ghcr.io/acme/api@sha256:${chars(HEX, 64)}`,
    `etag: "${chars(HEX, 32)}"`,
    // UUIDs
    `Request id ${uuid(chars)} failed with 502.`,
    `token_id: ${uuid(chars)}`,
    `The API key id is ${uuid(chars)} (not the key itself).`,
    `secret: ${uuid(chars)}`,
    // base64 of plain text
    `token: ${base64Of("hello world from the teammem docs")}`,
    `The header value is ${base64Of("Hello, World! This is plain text.")}`,
    `secret_b64: ${base64Of("this is not a secret, just a sentence.")}`,
    // documented example keys
    "Docs use AKIAIOSFODNN7EXAMPLE as the access key id.",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    // placeholders
    "password: <your password>",
    "API_KEY=xxxx",
    "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
    "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "token: ${GITHUB_TOKEN}",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "password: ****",
    "DB_PASSWORD=changeme",
    "api_key: your_api_key_here",
    "password: %DB_PASSWORD%",
    "secret: {{ vault_secret }}",
    "OPENAI_API_KEY=sk-...",
    "STRIPE_SECRET_KEY=",
    "Connect with postgres://user:password@localhost:5432/app",
    "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
    "curl -u admin:$ADMIN_TOKEN https://api.acme.io",
    "Authorization: Bearer <token>",
    "Authorization: Bearer $TOKEN",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "The key file starts with `-----BEGIN OPENSSH PRIVATE KEY-----`, never paste it here.",
    // lock-file integrity hashes
    `"integrity": "sha512-${chars(BASE64, 86)}=="`,
    `js-tokens@4.0.0:\n  integrity sha512-${chars(BASE64, 86)}==`,
    `resolution: {integrity: sha512-${chars(BASE64, 86)}==}`,
    // public keys and certificates
    `deploy key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(BASE64, 43)} ci@acme`,
    `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${chars(BASE64, 300)} ann@laptop`,
    pemBlock(chars, "PUBLIC KEY"),
    pemBlock(chars, "CERTIFICATE"),
    `public_key: ${chars(BASE64, 43)}=`,
    `Stripe publishable key pk_live_${chars(HEX + "ABCDEFGHJK", 40)}`,
    // already-redacted values
    "password: [REDACTED:password-assignment]",
    "token: ghp_…9f2c",
    "The leaked key AKIA…2L3M was revoked on 2026-02-11.",
    "API_KEY=[REDACTED]",
    "secret: ***REDACTED***",
    "postgres://app:[REDACTED:url-password]@db/app",
    // code and prose around secret-ish words
    "password: string;",
    "const token = await getToken();",
    "apiKey: process.env.API_KEY,",
    "secret: config.secret",
    "password: z.string().min(8),",
    "def login(password: str, token: Optional[str]) -> Session:",
    "password_hint: the one in 1Password",
    "max_tokens: 4096",
    "Rotate the API key every 90 days.",
    "The password policy requires 12 characters.",
    "Use `gh auth token` to print your token.",
    "password: see 1Password vault Prod DB",
    "Secret: the retry count is 3",
    "secretKeyRef: {name: db-credentials, key: password}",
    "The token is stored under TeamMemoryAccessTokenStorageKey2024 in the keychain.",
    "Max tokens for claude-3-5-sonnet-20241022 is 8192.",
    "vault kv get secret/data/prod/db",
    "<!-- secretlint-disable -->",
    // URLs without credentials
    "Clone git@github.com:acme/teammem.git",
    "Health at https://api.acme.io:8443/v1/health@latest",
    "redis://cache.internal:6379/0 and postgres://localhost:5432/app",
    "https://oauth2:@gitlab.acme.io/group/repo.git",
  ];
}

// Issue 10, drawn from their own random stream so the lines above keep their values.
function laterLines(chars: Chars): string[] {
  const sha = () => chars(HEX, 40);
  const base62 = BASE64.slice(0, 62);
  return [
    // issue 10: key fingerprints and key ids (they identify a public key and unlock nothing)
    `The host key fingerprint is SHA256:${chars(base62, 43)}.`,
    `deploy_key: SHA256:${chars(base62, 43)}`,
    `256 SHA256:${chars(base62, 43)} ci@acme (ED25519)`,
    `ssh key fingerprint: SHA256:${chars(base62, 43)}`,
    `The key fingerprint is MD5:${Array.from({ length: 16 }, () => chars(HEX, 2)).join(":")}`,
    `Key fingerprint = ${Array.from({ length: 10 }, () => chars(HEX, 4).toUpperCase()).join(" ")}`,
    `GPG_SIGNING_KEY=${chars(HEX, 16).toUpperCase()}`,
    `gpg signing key: ${chars(HEX, 40).toUpperCase()}`,
    `key_fingerprint = "${chars(base62, 26)}"`,
    `access key fingerprint ${chars(base62, 28)}`,
    // issue 10: tokens vendors publish in their documentation, and illustrations
    "Stripe's docs use sk_test_4eC39HqLyjWDarjtT1zdp7dc in every curl example.",
    "stripe.api_key = 'sk_test_BQokikJOvBiI2HlWgH4olfQ2'",
    "STRIPE_SECRET_KEY=sk_test_26PHem9AhJZvU623DfE1x4sd",
    "GitHub's docs show Authorization: Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "token: gho_16C7e42F292c6912E7710c838347Ae178B4a",
    "The Slack docs answer with xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",
    "jwt.io shows eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "MAILGUN_API_KEY=key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
    "AWS_ACCESS_KEY_ID=AKIAI44QH8DHBEXAMPLE",
    "STRIPE_SECRET_KEY=sk_live_1234567890abcdefghijklmn",
    "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "api_key: 1234567890abcdef1234",
    // issue 10: prose and config around password words that states no password
    "the password manager is 1Password",
    "The password must be at least 8 characters",
    "passwords are rotated every 90 days",
    "password for user admin123 is locked after 5 attempts",
    "The login flow: user:session handling",
    "credentials are in the vault: see 1Password",
    `GitHub token fix landed in commit ${sha()}`,
    `TWILIO_ACCOUNT_SID=AC${chars(HEX, 32)}`,
    "password: !vault |",
    "password: *db_password",
    "auth: true",
    "PATH=/usr/local/bin:/usr/bin",
    // Datadog words beside hashes and ids that are no key
    `Datadog API key rotation landed in commit ${sha()}`,
    `The Datadog app key rotation was fixed in ${sha()}.`,
    `datadog trace id ${chars(HEX, 32)}`,
    `Datadog API key docs: sha ${chars(HEX, 32)}`,
    `The datadog api key id is ${uuid(chars)} (the key is in Vault).`,
    "DD_SITE=datadoghq.eu\nDD_ENV=staging",
    // markdown emphasis and line breaks in text that holds no token
    "**Why:** the `__init__` hook runs *before* the **2**nd deploy; 2*3*4 = 24.",
    "The deploy key lives in Vault\nunder secret/prod/deploy\nRotated2024Q1",
    "Set **`NODE_ENV`**=production and __`DEBUG`__=0.",
    // Bug 03: a Twilio account SID (public) next to ids that are no auth token
    `Twilio account AC${chars(HEX, 32)} sends from the messaging service MG${chars(HEX, 32)}`,
    `twilio sid AC${chars(HEX, 32)}, token rotation fixed in commit ${chars(HEX, 32)}`,
    // Bug 04: the public halves and the prompting forms
    `# public key: age1${chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)}`,
    "age-keygen writes AGE-SECRET-KEY-1… to ~/.config/sops/age/keys.txt",
    "https://acme.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&sig=<signature>",
    "SAS URL: https://acme.blob.core.windows.net/exports?sv=2022-11-02&sig=[REDACTED:azure-sas-signature]",
    // Presigned URLs: the signature's name without the credential beside it, or a placeholder
    `OAuth 1 request: https://api.example.com/photos?oauth_nonce=abc&Signature=${chars(HEX, 40)}`,
    "https://acme-exports.s3.amazonaws.com/q3.csv?X-Amz-Credential=AKIA…%2Fs3%2Faws4_request&X-Amz-Signature=<signature>",
    "mysql -h db1 -P 3306 -u report -p reports",
    "mysql -uroot -p$MYSQL_ROOT_PASSWORD app",
    'test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", "-p$$MYSQL_ROOT_PASSWORD"]',
    'mysql -u app -p"${DB_PASSWORD}" app_db',
    "mysqldump -u app -p$(cat /run/secrets/db_password) app > dump.sql",
    // Bug 09: a docker image's published default password, on a local host or compose service
    "Local test database (docker compose default): postgres://postgres:postgres@localhost:5432/app_test",
    "Example: postgresql://user:pass@localhost/mydb",
    "RabbitMQ in docker-compose: amqp://guest:guest@localhost:5672/",
    "CI MySQL service: mysql://root:root@127.0.0.1:3306/test",
    "DATABASE_URL=postgres://postgres:postgres@db:5432/app",
    "MinIO console: http://minioadmin:minioadmin@[::1]:9001",
    "mongodb://root:root@mongo.localhost:27017/admin",
    "CI: mysql -h 127.0.0.1 -uroot -proot test < schema.sql",
  ];
}

/** Each line becomes its own note with frontmatter, as a memory would be. */
export function buildNegativeNotes(seed: number): NegativeNote[] {
  const chars = createChars(createRandom(seed));
  const later = laterLines(createChars(createRandom(seed + 10)));
  return [...lines(chars), ...later].map((line, index) => ({
    name: `negative #${index}: ${line.slice(0, 40)}`,
    text: `---\nname: Negative ${index}\ndescription: A note that holds no secret\ntype: reference\n---\n${line}\n`,
  }));
}
