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
  assertNoFileFolderClash(finder, path);
  const stored = finder.findCaseTwin(path);
  if (stored) throw caseTwin(path, `${stored} is in the team store`, stored);
}

/**
 * A new memory may not sit inside a folder that is a memory file in the store, nor take the name
 * of a folder of memories: one would replace the other on every disk, and in the store.
 */
function assertNoFileFolderClash(finder: DuplicateFinder, path: string): void {
  const segments = path.split("/");
  for (let end = 1; end < segments.length; end++) {
    const folder = segments.slice(0, end).join("/");
    // In any letter case: `SWR.md/x.md` beside the file `swr.md` is one name on macOS and Windows.
    const file = finder.has(folder) ? folder : finder.findCaseTwin(folder);
    if (file) throw clash(`${file} is a memory file in the team store, so ${path} cannot be inside ${file === folder ? "it" : `${folder} (the same name in other letters on macOS and Windows)`} as in a folder`);
  }
  const inFolder = finder.findInFolder(path);
  if (inFolder) {
    const folder = inFolder.slice(0, path.length);
    throw clash(`${folder} is a folder of memories in the team store, so no memory file may take ${folder === path ? "its name" : `its name in other letters (${path}: one name on macOS and Windows)`}`);
  }
}

function clash(why: string): AppError {
  return new AppError("INVALID_INPUT", `path: ${why}. Choose another name.`, { details: { field: "path" } });
}

function caseTwin(path: string, where: string, twin: string): AppError {
  return new AppError(
    "INVALID_INPUT",
    `path: ${where}, and ${path} differs from it in letter case only: a macOS or Windows checkout cannot hold both. Propose the change to ${twin}, or choose another name.`,
    { details: { field: "path" } },
  );
}
