import type { Config } from "../config";
import type { Db } from "../db/client";
import { ensureReadModel } from "../read-model/ensure-read-model";
import { loadDuplicateFinderAtHead, type FinderAtHead } from "./load-duplicate-finder";
import type { ProposalRow } from "./proposal-records";
import { OPEN_PROPOSAL_STATES, type DuplicateCandidate } from "./proposal-types";
import { parseStoredChecks, serializeStoredChecks } from "./stored-checks";

const OPEN_STATES: ReadonlySet<string> = new Set(OPEN_PROPOSAL_STATES);

/**
 * Open proposals with their duplicate check brought to the store's head, the way their page, the
 * API and the queue (check=clean) show them: a memory approved since a proposal's checks ran is
 * listed as soon as it lands, not only once the proposal itself is committed. Only the memories
 * changed since the recorded commit are judged again (DuplicateFinder.refresh), so a read costs
 * nothing while the store stands still and a few pairwise scores after a commit. The new list
 * is saved, so the next read and the approval see what was shown.
 */
export async function refreshDuplicateChecks(config: Config, db: Db, rows: ProposalRow[], contents?: Map<string, string | null>): Promise<ProposalRow[]> {
  const stale = await findStale(config, db, rows);
  if (stale.length === 0) return rows;
  const known = contents ?? new Map<string, string | null>();
  const missing = stale.filter(({ row }) => !known.has(row.id));
  if (missing.length > 0) {
    const revisions = await db.proposalRevision.findMany({ where: { OR: missing.map(({ row }) => ({ proposalId: row.id, revision: row.revision })) }, select: { proposalId: true, content: true } });
    for (const revision of revisions) known.set(revision.proposalId, revision.content);
  }
  const refreshed = new Map<string, ProposalRow>();
  for (const { row, atHead } of stale) {
    const content = known.get(row.id);
    if (content === undefined || content === null) continue; // a retirement has no duplicates
    const duplicates = judgeAtHead(atHead, row, content);
    refreshed.set(row.id, await saveDuplicateChecks(db, row, duplicates, atHead.commit));
  }
  return rows.map((row) => refreshed.get(row.id) ?? row);
}

/** The proposal's duplicates at the finder's commit, from the list it had at its checked commit. */
export function judgeAtHead(atHead: FinderAtHead, row: ProposalRow, content: string): DuplicateCandidate[] {
  const stored = parseStoredChecks(row.checks);
  const changed = stored.checkedCommit ? atHead.changedSince(stored.checkedCommit) : null;
  return changed ? atHead.finder.refresh(content, stored.checks.duplicates, changed, row.path) : atHead.finder.find(content, row.path);
}

/**
 * Saves a new duplicate list (and the commit it was judged at) on the revision it was judged
 * for; nothing else in the checks depends on the store. A proposal revised or moved meanwhile
 * keeps what its own move wrote. `updatedAt` stays: a check brought up to date is no change of
 * the proposal.
 */
export async function saveDuplicateChecks(db: Db, row: ProposalRow, duplicates: DuplicateCandidate[], checkedCommit: string | null): Promise<ProposalRow> {
  const stored = parseStoredChecks(row.checks);
  const checks = serializeStoredChecks({ ...stored, checks: { ...stored.checks, duplicates }, checkedCommit });
  await db.proposal.updateMany({ where: { id: row.id, revision: row.revision, state: row.state, checks: row.checks }, data: { checks, updatedAt: row.updatedAt } });
  return { ...row, checks };
}

type StaleRow = { row: ProposalRow; atHead: FinderAtHead };

async function findStale(config: Config, db: Db, rows: ProposalRow[]): Promise<StaleRow[]> {
  const open = rows.filter((row) => OPEN_STATES.has(row.state) && !parseStoredChecks(row.checks).isRetirement);
  if (open.length === 0) return [];
  const { commit } = await ensureReadModel(config, db);
  // The finder is loaded only for a project with a check behind the head (its first build reads every memory).
  const behind = open.filter((row) => commit !== null && parseStoredChecks(row.checks).checkedCommit !== commit);
  const finders = new Map<string, FinderAtHead>();
  for (const projectId of new Set(behind.map((row) => row.projectId))) finders.set(projectId, await loadDuplicateFinderAtHead(config, db, projectId));
  return behind.map((row) => ({ row, atHead: finders.get(row.projectId)! }));
}
