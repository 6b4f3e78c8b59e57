import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { assertProjectAcceptsProposals } from "../projects/assert-project-accepts-proposals";
import { ensureCloneAtRecordedCommit } from "../read-model/ensure-clone-at-recorded-commit";
import { readCurrentFile, readFileVersion } from "../store/commit-change";
import { resolveMaskedBlobId } from "../store/masked-blob-id";
import { detectSecrets } from "../secrets/detect-secrets";
import { hasCommit, readFilesAt, resolveRefQuickly } from "../store/git";
import { projectDir } from "../store/store-manifest";
import { MAIN } from "../store/read-store";
import { assertNoCaseTwin } from "./assert-no-case-twin";
import { getProposal } from "./get-proposal";
import { loadDuplicateFinder } from "./load-duplicate-finder";
import { contentHash, findUserOrThrow } from "./proposal-records";
import { assertTransition } from "./proposal-transitions";
import type { ProposalDetail, ProposalSource } from "./proposal-types";
import { runChecks } from "./run-checks";
import { serializeStoredChecks } from "./stored-checks";
import { assertBaseBlob, assertProposalContent, assertProposalPath, assertProposalSource, serializeProvenance } from "./validate-proposal-input";

export type SubmitProposalInput = {
  projectId: string;
  /** The memory file relative to the project folder, e.g. feedback_testing.md. */
  path: string;
  /** The whole new file, or null to retire the file. */
  content: string | null;
  /** The store blob the change was made against; undefined = the file at the store's head now. */
  baseBlob?: string | null;
  source: ProposalSource;
  proposerId: string;
  provenance?: Record<string, unknown>;
};

/**
 * Every way a memory heads for the team store starts here (member, extraction, dashboard edit or
 * retirement). Checks run now and are shown to the reviewer; a secret parks the proposal in
 * blocked_secret straight away.
 */
export async function submitProposal(config: Config, db: Db, input: SubmitProposalInput): Promise<ProposalDetail> {
  assertProposalPath(input.path);
  assertProposalContent(input.content);
  assertProposalSource(input.source);
  if (input.baseBlob !== undefined) assertBaseBlob(input.baseBlob);
  const provenance = serializeProvenance(input.provenance);
  await assertProjectAcceptsProposals(db, input.projectId);
  await findUserOrThrow(db, input.proposerId, "proposer");

  await ensureCloneAtRecordedCommit(config, db);
  if (input.content !== null) await assertNoCaseTwin(db, await loadDuplicateFinder(config, db, input.projectId), input.projectId, input.path);
  const base = await resolveBase(config, input);
  if (input.content === null && base.blob === null) {
    throw new AppError("INVALID_INPUT", `content: null retires a memory, but ${input.path} is not in the team store.`, { details: { field: "content" } });
  }
  const computed = await runChecks(config, db, { projectId: input.projectId, path: input.path, content: input.content, baseContent: base.content, isTeamConventionConfirmed: false });
  const state = computed.checks.secrets.length > 0 ? "blocked_secret" : "submitted";
  assertTransition(null, state);
  const hash = contentHash(input.content);

  const proposal = await db.$transaction(async (tx) => {
    const created = await tx.proposal.create({
      data: {
        projectId: input.projectId,
        path: input.path,
        source: input.source,
        proposerId: input.proposerId,
        provenance,
        state,
        revision: 1,
        baseBlob: base.blob,
        checks: serializeStoredChecks({ ...computed, baseCommit: base.commit, conflict: null }),
      },
    });
    await tx.proposalRevision.create({ data: { proposalId: created.id, revision: 1, content: input.content, contentHash: hash, authorId: input.proposerId } });
    await tx.proposalEvent.create({
      data: { proposalId: created.id, actorId: input.proposerId, fromState: null, toState: state, revision: 1, contentHash: hash, reason: state === "blocked_secret" ? "secret found on submit" : null },
    });
    return created;
  });
  return getProposal(config, db, proposal.id);
}

type Base = { blob: string | null; content: string | null; commit: string | null };

async function resolveBase(config: Config, input: SubmitProposalInput): Promise<Base> {
  if (input.baseBlob === undefined) {
    const head = await readCurrentFile(config, input.projectId, input.path);
    // Base-Commit is known only when the base was read from the head just now.
    return { blob: head?.blob ?? null, content: head?.content ?? null, commit: await resolveRefQuickly(config.storeCloneDir, MAIN) };
  }
  if (input.baseBlob === null) return { blob: null, content: null, commit: null };
  let blob = input.baseBlob;
  let content = await readFileVersion(config, input.projectId, input.path, blob);
  // A version holding a secret is known to callers only by its masked id: taking its real id too
  // would confirm a guess of the secret (the id hashes the text), so it is answered as unknown.
  if (content !== null && detectSecrets(content).length > 0) content = null;
  else if (content === null) {
    // A version that held a secret was given out under its masked id: the real one is kept.
    const real = await resolveMaskedBlobId(config, input.projectId, input.path, blob);
    if (real) [blob, content] = [real, await readFileVersion(config, input.projectId, input.path, real)];
  }
  if (content === null) throw new AppError("INVALID_INPUT", `baseBlob: no version of ${input.path} in the team store has this id; fetch the memory again and resubmit.`, { details: { field: "baseBlob" } });
  return { blob, content, commit: await confirmClaimedBaseCommit(config, input, blob) };
}

/**
 * The store commit a sync proposal says its base came from (`provenance.baseCommit`), when git
 * confirms that commit holds exactly that base: then the commit gets its Base-Commit trailer as
 * an edit made from the head does. A claim git does not confirm is left out of the audit trail.
 */
async function confirmClaimedBaseCommit(config: Config, input: SubmitProposalInput, blob: string): Promise<string | null> {
  const claimed = input.source === "sync" ? input.provenance?.baseCommit : undefined;
  if (typeof claimed !== "string" || !(await hasCommit(config.storeCloneDir, claimed))) return null;
  const filePath = `${projectDir(input.projectId)}/${input.path}`;
  return (await readFilesAt(config.storeCloneDir, claimed, [filePath])).get(filePath)?.blob === blob ? claimed : null;
}
