import { scanSecrets } from "./scan-secrets";
import type { SecretFinding } from "./secret-finding";

/**
 * What `teammem secrets` reports: exactly what the server's `scanSecrets` reports. Bug 02: this
 * once added secretlint's recommended preset on top, so the CLI named Shopify tokens that every
 * server check let through (and flagged `postgres://user:<password>@…`, which the server passes).
 * The preset's providers are now rules of `scanSecrets`; a unit test runs the preset over the
 * corpus and fails on anything it finds that `scanSecrets` misses. Kept (async, same name) for
 * the CLI's existing import.
 */
export async function scanSecretsWithSecretlint(text: string): Promise<SecretFinding[]> {
  return scanSecrets(text);
}
