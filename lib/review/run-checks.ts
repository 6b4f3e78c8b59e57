import type { Config } from "../config";
import type { Db } from "../db/client";
import { computeChecks, type ComputedChecks } from "./compute-checks";
import { loadDuplicateFinderAtHead } from "./load-duplicate-finder";
import type { DuplicateCandidate } from "./proposal-types";

export type RunChecksOptions = {
  projectId: string;
  path: string;
  content: string | null;
  baseContent: string | null;
  isTeamConventionConfirmed: boolean;
  now?: Date;
  /**
   * The duplicates found for this same content at an earlier store commit (its stored checks):
   * only the memories that changed since are judged again.
   */
  previous?: { checkedCommit: string; duplicates: DuplicateCandidate[] };
};

/** The checks, and the store commit the duplicate check ran against (null: no search ran). */
export type CheckedAt = ComputedChecks & { checkedCommit: string | null };

/**
 * The checks against the project's team memories at the store's head, through the read model's
 * duplicate index: its cost does not grow with the project.
 */
export async function runChecks(config: Config, db: Db, options: RunChecksOptions): Promise<CheckedAt> {
  const now = options.now ?? new Date();
  if (options.content === null) return { ...computeChecks({ ...options, duplicateFinder: null, now }), checkedCommit: null };
  const { finder, commit, changedSince } = await loadDuplicateFinderAtHead(config, db, options.projectId);
  const changed = options.previous ? changedSince(options.previous.checkedCommit) : null;
  const duplicates = changed && options.previous ? finder.refresh(options.content, options.previous.duplicates, changed, options.path) : undefined;
  return { ...computeChecks({ ...options, duplicateFinder: finder, duplicates, now }), checkedCommit: commit };
}
