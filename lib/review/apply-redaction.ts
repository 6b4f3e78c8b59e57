import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { redactSecrets } from "../secrets/redact-secrets";
import { findProposalOrThrow } from "./proposal-records";
import type { ProposalDetail } from "./proposal-types";
import { reviseProposal } from "./revise-proposal";

export type ApplyRedactionInput = { proposalId: string; actorId: string };

/**
 * Replaces every secret with `[REDACTED:<kind>]` as a new revision. Refused when a secret has no
 * clear end (an unterminated key block): the replacement might eat text that was not secret, so
 * someone has to remove it by hand.
 */
export async function applyRedaction(config: Config, db: Db, input: ApplyRedactionInput): Promise<ProposalDetail> {
  const { content } = await findProposalOrThrow(db, input.proposalId);
  if (content === null) throw new AppError("INVALID_INPUT", "This proposal retires a memory; there is no text to redact.");
  const redaction = redactSecrets(content);
  if (redaction.blocked.length > 0) {
    const where = redaction.blocked.map((finding) => `${finding.kind} on line ${finding.line}`).join(", ");
    throw new AppError("SECRET_FOUND", `The redaction cannot tell where ${redaction.blocked.length === 1 ? "a secret ends" : "some secrets end"} (${where}); edit the memory to remove ${redaction.blocked.length === 1 ? "it" : "them"} by hand.`, {
      details: { findings: redaction.blocked },
    });
  }
  if (redaction.replaced.length === 0) throw new AppError("INVALID_INPUT", "There is no secret in this proposal to redact.");
  const kinds = [...new Set(redaction.replaced.map((finding) => finding.kind))].join(", ");
  const note = `Redacted ${redaction.replaced.length} secret${redaction.replaced.length === 1 ? "" : "s"} (${kinds})`;
  return reviseProposal(config, db, { proposalId: input.proposalId, actorId: input.actorId, content: redaction.text, note });
}
