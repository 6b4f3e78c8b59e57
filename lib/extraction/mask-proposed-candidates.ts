import { maskSecretsDeep, maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import type { ExtractionCandidate } from "./candidate-types";

/**
 * An extraction or dream answer as the API returns it: every text of every candidate masked as
 * pages mask them, a token glued to a file name's `_` included (the refusal of such a name quotes
 * it too). The model writes these fields, and a model can echo a credential: a file named after a
 * key was refused as a proposal, then shown in clear in the answer.
 */
export function maskProposedCandidates<Result extends { candidates: ExtractionCandidate[]; fallbackReason?: string }>(result: Result): Result {
  return { ...result, ...(result.fallbackReason === undefined ? {} : { fallbackReason: maskSecretsInQuotedNames(result.fallbackReason) }), candidates: maskSecretsDeep(result.candidates, maskSecretsInQuotedNames) as Result["candidates"] };
}
