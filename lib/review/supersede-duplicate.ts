import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureCloneAtRecordedCommit } from "../read-model/ensure-clone-at-recorded-commit";
import { AppError } from "../errors";
import { readCurrentFile } from "../store/commit-change";
import { findProposalOrThrow } from "./proposal-records";
import { assertTransition } from "./proposal-transitions";
import type { ProposalDetail } from "./proposal-types";
import { reviseProposal } from "./revise-proposal";
import { parseStoredChecks } from "./stored-checks";

export type SupersedeDuplicateInput = { proposalId: string; actorId: string; targetPath: string };

/**
 * The reviewer decides a proposal is a better version of a memory the team already has: it
 * becomes an edit of that file (made against the file as it is now), so approving it replaces
 * the old memory instead of adding a second one. Only a listed near-duplicate can be chosen.
 * It is a new revision with a note, so the approval is cleared and the checks run again.
 */
export async function supersedeDuplicate(config: Config, db: Db, input: SupersedeDuplicateInput): Promise<ProposalDetail> {
  const { proposal, state, content } = await findProposalOrThrow(db, input.proposalId);
  assertTransition(state, "in_review"); // before anything changes: a closed proposal stays as it is
  const duplicates = parseStoredChecks(proposal.checks).checks.duplicates.map((duplicate) => duplicate.path);
  if (input.targetPath === proposal.path || !duplicates.includes(input.targetPath)) {
    throw new AppError("INVALID_INPUT", `targetPath: ${input.targetPath} is not one of this proposal's possible duplicates.`, { details: { field: "targetPath" } });
  }
  if (content === null) throw new AppError("INVALID_INPUT", "A retirement cannot supersede another memory.");
  await ensureCloneAtRecordedCommit(config, db);
  const target = await readCurrentFile(config, proposal.projectId, input.targetPath);
  if (!target) throw new AppError("CONFLICT", `${input.targetPath} is no longer in the team store; reload the proposal.`);

  await db.proposal.update({ where: { id: proposal.id }, data: { path: input.targetPath, baseBlob: target.blob } });
  return reviseProposal(config, db, { proposalId: proposal.id, actorId: input.actorId, content, note: `now an edit of ${input.targetPath}, superseding it (was ${proposal.path})` });
}
