import { detectSecrets, toSecretFinding } from "./detect-secrets";
import type { SecretFinding } from "./secret-finding";

/**
 * Every secret in a text (frontmatter included), in order. This is the one to call before a
 * memory is proposed, approved, committed or sent to a model: synchronous and cheap (well under a
 * millisecond for a 2 KB note). It is the only detector: `teammem secrets` reports the same.
 */
export function scanSecrets(text: string): SecretFinding[] {
  return detectSecrets(text).map(toSecretFinding);
}
