/**
 * An http(s) address teammem sends requests to or shows. A user name or password in it would be
 * printed in every message that names the server and saved with the login, so it is refused:
 * teammem authenticates with a token, the model API with its key.
 */
const HTTP_URL = /^https?:\/\/[^\s/]+(\/[^\s]*)?$/;
const USERINFO = /^https?:\/\/[^/?#]*@/i;

/** Why `value` cannot be a server address, or null when it can. Never repeats the value. */
export function findServerUrlProblem(value: string): "not-http" | "credentials" | null {
  if (!HTTP_URL.test(value)) return "not-http";
  return USERINFO.test(value) ? "credentials" : null;
}
