// `SHA256:nThbg6k…` (OpenSSH), `MD5:9f:2c:…` (old OpenSSH), `SHA1:…`.
const HASH_PREFIXED = /^(?:SHA(?:1|224|256|384|512)|MD5):/i;
const HASH_PREFIX_BEFORE = /(?:SHA(?:1|224|256|384|512)|MD5):$/i;
// A GPG key id or fingerprint (16 or 40 hex digits) or an X.509 thumbprint, also written in
// groups (`4AEE 18F8 3AFD EB23 …`, `9f:2c:4e:…`).
const GROUPED_HEX = /^[0-9A-Fa-f]{2,}(?:[ :][0-9A-Fa-f]{2,})*$/;
const FINGERPRINT_WORDS = /fingerprint|thumbprint|\bgpg\b|\bpgp\b|\bkey[ _-]?id\b|\bfpr?\b|gpg_|pgp_|_fpr?\b/i;

/**
 * Whether a value is a public key's fingerprint or id rather than key material: it identifies a
 * key anyone may see (ssh-keygen and gpg print them, hosts publish them) and unlocks nothing.
 * `context` is the text before the value on its line (the key name, "fingerprint is").
 */
export function isKeyFingerprint(value: string, context: string): boolean {
  if (HASH_PREFIXED.test(value) || HASH_PREFIX_BEFORE.test(context)) return true;
  if (!FINGERPRINT_WORDS.test(context)) return false;
  return GROUPED_HEX.test(value) || /fingerprint|thumbprint/i.test(context);
}
