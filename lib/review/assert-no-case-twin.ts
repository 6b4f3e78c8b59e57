import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { DuplicateFinder } from "./find-duplicates";
import { OPEN_PROPOSAL_STATES } from "./proposal-types";

/**
 * A new memory file may not differ from a store memory (or a waiting proposal's file) in letter
 * case only: a macOS or Windows checkout holds one of `project_Retry.md` and `project_retry.md`,
 * and a sync there would overwrite one with the other. The store's memories come from the
 * duplicate finder (in memory, at the store's head, built for the checks anyway); the open
 * proposals of the project are the review queue, not the project's size.
 */
export async function assertNoCaseTwin(db: Db, finder: DuplicateFinder, projectId: string, path: string): Promise<void> {
  if (finder.has(path)) return; // an edit of a file the store holds
  assertNoStoreCaseTwin(finder, path);
  const open = await db.proposal.findMany({ where: { projectId, state: { in: [...OPEN_PROPOSAL_STATES] }, NOT: { path } }, select: { path: true } });
  const proposed = open.find((proposal) => proposal.path.toLowerCase() === path.toLowerCase())?.path;
  if (proposed) throw caseTwin(path, `a proposal for ${proposed} waits for review`, proposed);
}

/**
 * The store's half of the rule, again at approval and reopen: two twins can both wait for review
 * (submitted at the same moment, or one reopened after the other was submitted), and the second
 * to be approved must not land beside the first.
 */
export function assertNoStoreCaseTwin(finder: DuplicateFinder, path: string): void {
  if (finder.has(path)) return;
  const stored = finder.findCaseTwin(path);
  if (stored) throw caseTwin(path, `${stored} is in the team store`, stored);
}

function caseTwin(path: string, where: string, twin: string): AppError {
  return new AppError(
    "INVALID_INPUT",
    `path: ${where}, and ${path} differs from it in letter case only: a macOS or Windows checkout cannot hold both. Propose the change to ${twin}, or choose another name.`,
    { details: { field: "path" } },
  );
}
