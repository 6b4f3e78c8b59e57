import { findAllMatches } from "./find-all-matches";
import { isLocalDefaultCredential } from "./is-local-default-credential";
import { isPlaceholderValue } from "./is-placeholder-value";
import { RANK_FORMAT, RANK_STRUCTURE, type SecretKind, type SecretRange } from "./secret-finding";

// `scheme://user:` — the password runs to the last `@` of the URL, because people paste
// passwords with unencoded punctuation (`p@ss#1`) into connection strings.
const URL_USERINFO = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/?#"'`<>]*:/gi;
const URL_END = /[\s"'`<>]/;
// The host after the chosen `@` must look like a host, or `https://host:8080/a@b` would read
// `8080/a` as a password.
const HOST_AFTER_AT = /^[A-Za-z0-9[][A-Za-z0-9.\-[\]]*(?:[:/?#,;)]|$)/;
const PORT_THEN_PATH = /^\d{1,5}(?:[/?#]|$)/;
const HOST = /^(?:\[[^\]]*\]|[^:/?#,;)]*)/;
// jdbc:…;password=… / jdbc:…?password=… / jdbc:oracle:thin:user/password@host
const JDBC_PASSWORD_PARAM = /jdbc:[a-z0-9]+:[^\s"'`]*?[?;&:]password=([^&;\s"'`]+)/gi;
const JDBC_ORACLE_THIN = /jdbc:oracle:thin:[^\s/@:"'`]+\/([^\s@"'`]+)@/gi;
// curl -u user:pass, curl --user "user:pa ss"
const CURL_USER = /\b(?:curl|wget|http)\b[^\n]*?\s(?:-u|--user)(?:\s+|=)(?:"([^"\n]*)"|'([^'\n]*)'|(\S+))/g;
// Authorization: Basic … / Bearer …
const AUTHORIZATION = /Authorization["']?\s*[:=]\s*["']?(Basic|Bearer|Token)\s+([A-Za-z0-9._~+/=-]{8,})/gi;

/** Passwords in URLs (postgres, mysql, mongodb, redis, https, …), JDBC, curl and auth headers. */
export function findUrlCredentials(text: string): SecretRange[] {
  return [
    ...findUrlPasswords(text),
    ...findGroupValues(text, JDBC_PASSWORD_PARAM, "jdbc-password"),
    ...findGroupValues(text, JDBC_ORACLE_THIN, "jdbc-password"),
    ...findCurlPasswords(text),
    ...findAuthorizationHeaders(text),
  ];
}

function findUrlPasswords(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(URL_USERINFO, text)) {
    const passwordStart = match.index + match[0].length;
    const urlEnd = indexOfOrEnd(text, URL_END, passwordStart);
    const atIndex = lastHostAt(text, passwordStart, urlEnd);
    if (atIndex < 0) continue;
    const password = text.slice(passwordStart, atIndex);
    // Split at the last `:`, so that a user already redacted (`[REDACTED:kind]`) is read whole.
    if (password === GITHUB_OAUTH_PASSWORD || password.endsWith(`:${GITHUB_OAUTH_PASSWORD}`)) {
      ranges.push(...findOAuthUserToken(text, match.index + match[0].indexOf("://") + 3, atIndex - GITHUB_OAUTH_PASSWORD.length - 1));
      continue;
    }
    if (PORT_THEN_PATH.test(password) || isPlaceholderValue(password)) continue;
    const user = text.slice(match.index + match[0].indexOf("://") + 3, passwordStart - 1);
    const host = HOST.exec(text.slice(atIndex + 1, urlEnd))?.[0] ?? "";
    if (isLocalDefaultCredential({ user, password, host })) continue;
    ranges.push(range("url-password", passwordStart, atIndex));
  }
  return ranges;
}

// `https://<token>:x-oauth-basic@github.com/…`: GitHub's fixed password, the token is the user.
const GITHUB_OAUTH_PASSWORD = "x-oauth-basic";

function findOAuthUserToken(text: string, userStart: number, userEnd: number): SecretRange[] {
  const token = text.slice(userStart, userEnd);
  return isPlaceholderValue(token) ? [] : [{ ...range("github-classic-token", userStart, userEnd), rank: RANK_FORMAT }];
}

function lastHostAt(text: string, from: number, to: number): number {
  for (let at = text.lastIndexOf("@", to - 1); at >= from; at = text.lastIndexOf("@", at - 1)) {
    if (HOST_AFTER_AT.test(text.slice(at + 1, to))) return at;
  }
  return -1;
}

function findCurlPasswords(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(CURL_USER, text)) {
    const credentials = match[1] ?? match[2] ?? match[3] ?? "";
    const colon = credentials.indexOf(":");
    if (colon < 0) continue;
    const password = credentials.slice(colon + 1);
    if (isPlaceholderValue(password)) continue;
    const credentialsStart = match.index + match[0].lastIndexOf(credentials);
    const start = credentialsStart + colon + 1;
    ranges.push(range("basic-auth-password", start, start + password.length));
  }
  return ranges;
}

function findAuthorizationHeaders(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(AUTHORIZATION, text)) {
    const [whole, scheme = "", credential = ""] = match;
    if (isPlaceholderValue(credential)) continue;
    const start = match.index + whole.length - credential.length;
    const kind = scheme.toLowerCase() === "basic" ? "basic-auth-password" : "bearer-token";
    ranges.push(range(kind, start, start + credential.length));
  }
  return ranges;
}

function findGroupValues(text: string, pattern: RegExp, kind: SecretKind): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(pattern, text)) {
    const [whole, value = ""] = match;
    if (isPlaceholderValue(value)) continue;
    const start = match.index + whole.lastIndexOf(value);
    ranges.push(range(kind, start, start + value.length));
  }
  return ranges;
}

function indexOfOrEnd(text: string, pattern: RegExp, from: number): number {
  const rest = text.slice(from, from + 2048);
  const found = rest.search(pattern);
  return found < 0 ? from + rest.length : from + found;
}

function range(kind: SecretKind, start: number, end: number): SecretRange {
  return { kind, start, end, isBounded: true, rank: RANK_STRUCTURE };
}
