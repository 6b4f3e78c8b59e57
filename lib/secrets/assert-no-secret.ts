import { AppError } from "../errors";
import { scanSecrets } from "./scan-secrets";

/**
 * Free text that is stored in clear and shown back (a rejection reason, a revision note, a token
 * or account name, a file name) must hold no credential: no secret in the database, and none in
 * any response. The message names the field and the kind, never the value.
 */
export function assertNoSecret(text: string, field: string): void {
  const [finding] = scanSecrets(text);
  if (!finding) return;
  throw new AppError("INVALID_INPUT", `${field}: holds what looks like a credential (${finding.kind}); describe it instead of pasting it.`, { details: { field } });
}
