import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureCloneAtRecordedCommit } from "../read-model/ensure-clone-at-recorded-commit";
import { AppError } from "../errors";
import { assertNoSecret } from "../secrets/assert-no-secret";
import { readBlob, readCurrentFile } from "../store/commit-change";
import { resolveRefQuickly } from "../store/git";
import { MAIN } from "../store/read-store";
import { getProposal } from "./get-proposal";
import { contentHash, findProposalOrThrow, findUserOrThrow } from "./proposal-records";
import { assertTransition } from "./proposal-transitions";
import type { ProposalDetail } from "./proposal-types";
import { runChecks } from "./run-checks";
import { parseStoredChecks, serializeStoredChecks } from "./stored-checks";
import { transitionProposal } from "./transition-proposal";
import { assertProposalContent } from "./validate-proposal-input";
import { assertNoBidiControl } from "./assert-no-bidi-control";

export type ReviseProposalInput = { proposalId: string; actorId: string; content: string | null; note?: string };

const MAX_NOTE_LENGTH = 2_000;

/**
 * A new revision (an edit by the reviewer or the proposer). The old revision is kept, the
 * approval and the team-convention confirmation are cleared (they were about other words), and
 * the checks run again. Editing a conflicted proposal is how the reviewer resolves it: the new
 * content is taken as made against the store's current file.
 */
export async function reviseProposal(config: Config, db: Db, input: ReviseProposalInput): Promise<ProposalDetail> {
  assertProposalContent(input.content);
  const note = input.note?.trim() || null;
  if (note && note.length > MAX_NOTE_LENGTH) throw new AppError("INVALID_INPUT", `note: at most ${MAX_NOTE_LENGTH} characters.`, { details: { field: "note" } });
  if (note) assertNoSecret(note, "note");
  if (note) assertNoBidiControl(note, "note");
  await findUserOrThrow(db, input.actorId, "editor");
  const { proposal, state } = await findProposalOrThrow(db, input.proposalId);
  // Refuse early (before reading the store) when the proposal is closed or being committed.
  assertTransition(state, "in_review");

  await ensureCloneAtRecordedCommit(config, db);
  const stored = parseStoredChecks(proposal.checks);
  const rebased = state === "conflicted" ? await readCurrentFile(config, proposal.projectId, proposal.path) : undefined;
  const baseBlob = rebased === undefined ? proposal.baseBlob : (rebased?.blob ?? null);
  const baseContent = rebased === undefined ? (baseBlob ? await readBlob(config, baseBlob) : null) : (rebased?.content ?? null);
  if (input.content === null && baseBlob === null) {
    throw new AppError("INVALID_INPUT", `content: null retires a memory, but ${proposal.path} is not in the team store.`, { details: { field: "content" } });
  }
  const computed = await runChecks(config, db, { projectId: proposal.projectId, path: proposal.path, content: input.content, baseContent, isTeamConventionConfirmed: false });
  const to = computed.checks.secrets.length > 0 ? "blocked_secret" : "in_review";
  const baseCommit = rebased === undefined ? stored.baseCommit : await resolveRefQuickly(config.storeCloneDir, MAIN);
  const revision = proposal.revision + 1;

  await db.$transaction(async (tx) => {
    await transitionProposal(tx, {
      proposalId: proposal.id,
      from: state,
      to,
      revision: proposal.revision,
      actorId: input.actorId,
      content: input.content,
      reason: note ?? `revision ${revision}${to === "blocked_secret" ? ": secret found" : ""}`,
      data: {
        revision,
        baseBlob,
        checks: serializeStoredChecks({ ...computed, baseCommit, conflict: null }),
        approvedRevision: null,
        approvedById: null,
        intendedCommit: null,
        teamConventionConfirmed: false,
      },
    });
    await tx.proposalRevision.create({ data: { proposalId: proposal.id, revision, content: input.content, contentHash: contentHash(input.content), authorId: input.actorId, note } });
  });
  return getProposal(config, db, proposal.id);
}
