import type { Config } from "../config";
import type { Db } from "../db/client";
import { computeChecks, type ComputedChecks } from "./compute-checks";
import { loadDuplicateFinder } from "./load-duplicate-finder";

export type RunChecksOptions = {
  projectId: string;
  path: string;
  content: string | null;
  baseContent: string | null;
  isTeamConventionConfirmed: boolean;
  now?: Date;
};

/**
 * The checks against the project's team memories at the store's head, through the read model's
 * duplicate index: its cost does not grow with the project.
 */
export async function runChecks(config: Config, db: Db, options: RunChecksOptions): Promise<ComputedChecks> {
  const finder = options.content === null ? null : await loadDuplicateFinder(config, db, options.projectId);
  return computeChecks({ ...options, duplicateFinder: finder, now: options.now ?? new Date() });
}
