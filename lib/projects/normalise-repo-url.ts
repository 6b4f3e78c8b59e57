/**
 * A repository URL in the one form teammem stores and compares: `host[:port]/path`, e.g.
 * `github.com/acme/checkout`. Clone URLs of the same repository over https, ssh (both the
 * `ssh://` and the scp-like `git@host:path` spelling) and git:// come out equal, so `teammem
 * sync` can match a checkout's origin against a project's URLs whatever protocol it cloned with.
 *
 * - credentials (`user:token@`), the scheme, a trailing `.git`, trailing slashes, a query and a
 *   fragment are dropped; the host is lowercased (hosts are case-insensitive, paths may not be);
 * - a port is kept only when it is not the scheme's default (ssh 22, https 443, http 80, git 9418);
 * - the path keeps its case: a self-hosted server may treat `Org/App` and `org/app` as two repositories.
 *
 * Pure: no network, no git. Throws nothing; callers turn the reason into an error naming their field.
 */
export type NormalisedRepoUrl = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_REPO_URL_LENGTH = 500;

const DEFAULT_PORTS: Record<string, string> = { ssh: "22", "git+ssh": "22", "ssh+git": "22", https: "443", http: "80", git: "9418" };
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
// scp-like syntax (git's own rule: a colon before any slash, and no "://"): [user@]host:path
const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// Characters found in real repository paths (GitHub, GitLab groups, Gitea, ~user on ssh).
const PATH_SEGMENT = /^[A-Za-z0-9._~+-]+$/;

export function normaliseRepoUrl(input: string): NormalisedRepoUrl {
  const text = input.trim();
  if (text === "") return fail("it is empty");
  if (text.length > MAX_REPO_URL_LENGTH) return fail(`it is longer than ${MAX_REPO_URL_LENGTH} characters`);
  if (/[\s\0]/.test(text)) return fail("it contains spaces or control characters");
  // Checked on the raw text: URL parsing would quietly resolve them away, also spelled with
  // %2e (`checkout/%2e%2e/payments` became github.com/acme/payments), ended by a query, or
  // between backslashes, which https:// reads as slashes.
  if (text.includes("\\")) return fail("it contains a backslash");
  if (/[/:]\.{1,2}(?=[/?#]|$)/.test(text.replace(/%2e/gi, "."))) return fail("its path contains . or .. segments");
  // Decoded, an escaped slash would split one segment in two: another path than the one written.
  if (/%(2f|5c)/i.test(text)) return fail("its path contains an escaped slash (%2F or %5C)");

  const parts = splitUrl(text);
  if (!parts.ok) return parts;
  const host = normaliseHost(parts);
  if (!host.ok) return host;
  const path = normalisePath(parts.path);
  if (!path.ok) return path;
  return { ok: true, url: `${host.url}/${path.url}` };
}

type UrlParts = { ok: true; scheme: string | null; host: string; port: string | null; path: string; hasScheme: boolean };

function splitUrl(text: string): UrlParts | { ok: false; reason: string } {
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === "file") return fail("a local file path is not a shared repository; use the address others clone from");
    if (!Object.hasOwn(DEFAULT_PORTS, scheme)) return fail(`the scheme ${scheme}:// is not one git clones over (https, http, ssh, git)`);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return fail("it is not a valid URL");
    }
    return { ok: true, scheme, host: url.hostname, port: url.port || null, path: decodePath(url.pathname), hasScheme: true };
  }
  const scp = SCP_LIKE.exec(text);
  // host:2222/org/app is a host with a port (how a normalised URL keeps a port), not scp's host:path.
  if (scp && !/^\d+\//.test(scp[2]!)) return { ok: true, scheme: "ssh", host: scp[1]!, port: null, path: scp[2]!, hasScheme: false };
  if (text.startsWith("/") || text.startsWith(".") || text.startsWith("~")) {
    return fail("a local file path is not a shared repository; use the address others clone from");
  }
  // Already normalised (github.com/acme/checkout), or host/path without a scheme; credentials dropped.
  const [authority = "", ...rest] = text.replace(/^[^@/]+@/, "").split("/");
  const portMatch = /^(.*):(\d+)$/.exec(authority);
  return { ok: true, scheme: null, host: portMatch ? portMatch[1]! : authority, port: portMatch ? portMatch[2]! : null, path: rest.join("/"), hasScheme: false };
}

function normaliseHost({ host: rawHost, port, scheme, hasScheme }: UrlParts): NormalisedRepoUrl {
  const host = rawHost.toLowerCase().replace(/\.$/, "");
  if (host === "") return fail("it has no host (expected something like github.com/org/app)");
  // Without a scheme, a single word is more likely a typo than an intranet host name.
  if (!hasScheme && host !== "localhost" && !host.includes(".")) return fail(`"${rawHost}" is not a host name (expected something like github.com/org/app)`);
  if (!host.split(".").every((label) => HOST_LABEL.test(label))) return fail(`"${rawHost}" is not a valid host name`);
  if (port !== null && !/^\d{1,5}$/.test(port)) return fail(`the port "${port}" is not a number`);
  const isDefaultPort = port === null || (scheme !== null && DEFAULT_PORTS[scheme] === String(Number(port)));
  return { ok: true, url: isDefaultPort ? host : `${host}:${Number(port)}` };
}

function normalisePath(rawPath: string): NormalisedRepoUrl {
  const withoutExtras = rawPath.replace(/[?#].*$/, "");
  const segments = withoutExtras.split("/").filter((segment) => segment !== "");
  const last = segments.length - 1;
  if (last >= 0 && /\.git$/i.test(segments[last]!)) segments[last] = segments[last]!.slice(0, -4);
  if (segments.length === 0 || segments[last] === "") return fail("it names no repository (expected a path such as org/app after the host)");
  for (const segment of segments) {
    if (segment === "." || segment === "..") return fail("its path contains . or .. segments");
    if (!PATH_SEGMENT.test(segment)) return fail(`its path segment "${segment}" has characters a repository path does not use`);
  }
  return { ok: true, url: segments.join("/") };
}

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname; // a broken %-escape is then refused by the segment check
  }
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
