// Public prefixes that name the provider without weakening the secret.
const KNOWN_PREFIX =
  /^(?:github_pat_|gh[pousr]_|gl[a-z]{2,6}-|xox[a-z]-|xapp-|[sr]k_(?:live|test)_|whsec_|sk-ant-[a-z]+\d\d-|sk-(?:proj|svcacct|admin)-|sk-|AIza|npm_|pypi-|SG\.|key-|hf_|api_org_|dckr_pat_|hv[sbr]\.|eyJ|AKIA|ASIA|https:\/\/hooks\.slack\.com\/)/;
const PEM_HEADER = /^-----BEGIN [A-Z ]+-----/;
// Below this length the last four characters would give away too much of the value.
const MIN_LENGTH_FOR_TAIL = 16;

/**
 * A preview that identifies a secret without revealing it: the provider's public prefix and the
 * last four characters (`ghp_…9f2c`), only the header of a key block, or just `…` for a short
 * value such as a password.
 */
export function previewSecret(value: string): string {
  const header = PEM_HEADER.exec(value);
  if (header) return `${header[0]}…`;
  const prefix = KNOWN_PREFIX.exec(value)?.[0] ?? "";
  const tail = value.length >= MIN_LENGTH_FOR_TAIL ? value.slice(-4) : "";
  return `${prefix}…${tail}`;
}
