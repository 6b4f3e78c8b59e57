import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";

/**
 * Whether a private memory's path holds what looks like a credential (`reference_ghp_….md`). Such
 * a file is listed by its masked name with the finding that says to rename it, never linked: a
 * link would carry the name in clear in the page.
 */
export function nameHoldsSecret(memoryPath: string): boolean {
  return maskSecretsInQuotedNames(memoryPath) !== memoryPath;
}
