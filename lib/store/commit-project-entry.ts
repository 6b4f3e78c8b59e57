import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { log } from "../log";
import { parseJsonOrNull } from "../parse-json";
import { STORE_LOCK_NAME } from "./commit-change";
import { createCommit, listTree, pushCommit, readFilesAt, resolveRef, withRepoLock, writeTreeWithChanges, type GitIdentity, type TreeChange } from "./git";
import { MAIN } from "./read-store";
import { PROJECT_INDEX_FILE, regenerateProjectIndex } from "./regenerate-project-index";
import { releaseStaleMainLock, mainLockedError } from "./stale-ref-lock";
import { jitter, sleep, withStoreLock } from "./store-lock";
import { projectDir, ProjectId, serializeStoreManifest, STORE_FORMAT_VERSION, STORE_MANIFEST_FILE, StoreManifest, StoreProjectEntry } from "./store-manifest";
import { fetchStore } from "./fetch-on-same-disk";
import { readRecordedCommit } from "../read-model/sync-read-model";
import { assertHeadKeepsRecordedCommit } from "./store-history";

export type ProjectEntry = StoreManifest["projects"][number];

export type CommitProjectEntryOptions = {
  projectId: string;
  /**
   * The entry to write, given the one at the store's head (null when teammem.json does not list
   * the project). Called again on every retry, against the new head; a throw refuses the change.
   */
  edit: (current: ProjectEntry | null) => ProjectEntry;
  /** Who made the change: author and committer of the commit. */
  actor: GitIdentity;
  subject: string;
  /** e.g. Project-Id; one `Key: value` line each. */
  trailers: Record<string, string>;
  maxAttempts?: number;
};

/** `unchanged`: the head already says this (and the folder exists); nothing was committed. */
export type ProjectEntryOutcome = { status: "committed" | "unchanged"; commit: string; previous: ProjectEntry | null };

const DEFAULT_MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 1_000;

/**
 * Writes one project's entry in teammem.json, and its folder `projects/<id>/` (with an empty
 * MEMORY.md) when the store has none, as ONE commit made the way approvals are: under the store
 * lease, built from git objects on the freshly fetched head, pushed without force, rebuilt and
 * retried when the branch moved. The store is the ledger of which projects exist and what they
 * are called; the database follows it.
 */
export async function commitProjectEntry(config: Config, db: Db, options: CommitProjectEntryOptions): Promise<ProjectEntryOutcome> {
  if (!ProjectId.safeParse(options.projectId).success) throw new AppError("INVALID_INPUT", `"${options.projectId}" is not a project id.`);
  const message = formatMessage(options.subject, options.trailers);
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const clone = config.storeCloneDir;

  return withStoreLock(db, STORE_LOCK_NAME, async () => {
    // As for approvals: a lock on main left by a git process that died is removed, one held is named.
    let mainLock = await releaseStaleMainLock(clone);
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const prepared = await withRepoLock(clone, () => prepareEntryCommit(clone, db, options, message));
      if (prepared.status === "unchanged") return prepared;
      if ((await withRepoLock(clone, () => pushCommit(clone, prepared.commit))) === "pushed") return prepared;
      log("info", "store.push_retry", { attempt, maxAttempts, projectId: options.projectId });
      mainLock = await releaseStaleMainLock(clone);
      if (attempt < maxAttempts) await sleep(jitter(Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS)));
    }
    if (mainLock.status === "held") throw mainLockedError(mainLock);
    throw new AppError("STORE_UNAVAILABLE", "The team store kept changing while the project was being saved; nothing was lost, try again.");
  });
}

async function prepareEntryCommit(clone: string, db: Db, options: CommitProjectEntryOptions, message: string): Promise<ProjectEntryOutcome> {
  await fetchStore(clone);
  const head = await resolveRef(clone, MAIN);
  // As for approvals: a store that lost the history on record gets no commit (no new root).
  await assertHeadKeepsRecordedCommit(clone, head, await readRecordedCommit(db));
  const manifestText = head ? ((await readFilesAt(clone, head, [STORE_MANIFEST_FILE])).get(STORE_MANIFEST_FILE)?.content ?? null) : null;
  const manifest: StoreManifest = manifestText === null ? { formatVersion: STORE_FORMAT_VERSION, projects: [] } : parseManifest(manifestText);
  const previous = manifest.projects.find((project) => project.id === options.projectId) ?? null;
  const next = StoreProjectEntry.parse(options.edit(previous));
  if (next.id !== options.projectId) throw new AppError("INTERNAL", "A project entry cannot change its id.");

  const prefix = `${projectDir(options.projectId)}/`;
  const hasFolder = head ? (await listTree(clone, head, prefix)).some((entry) => entry.path.startsWith(prefix)) : false;
  const isSameEntry = previous !== null && JSON.stringify(previous) === JSON.stringify(next);
  if (head && isSameEntry && hasFolder) return { status: "unchanged", commit: head, previous };

  const projects = previous ? manifest.projects.map((project) => (project.id === next.id ? next : project)) : [...manifest.projects, next];
  const changes: TreeChange[] = [{ path: STORE_MANIFEST_FILE, content: serializeStoreManifest({ ...manifest, projects }) }];
  // The folder git can hold: an (empty) MEMORY.md, exactly what approvals regenerate for no memories.
  if (!hasFolder) changes.push({ path: prefix + PROJECT_INDEX_FILE, content: regenerateProjectIndex([]) });
  const tree = await writeTreeWithChanges(clone, head, changes);
  if (!tree) throw new AppError("INTERNAL", "The project commit came out empty; nothing was written.");
  const commit = await createCommit({ dir: clone, tree, parent: head, message, author: options.actor, committer: options.actor });
  return { status: "committed", commit, previous };
}

function parseManifest(text: string): StoreManifest {
  const parsed = StoreManifest.safeParse(parseJsonOrNull(text));
  if (parsed.success) return parsed.data;
  throw new AppError("STORE_UNAVAILABLE", `The store's ${STORE_MANIFEST_FILE} is not valid; fix it with a commit to the store before changing projects.`);
}

const TRAILER_KEY = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;

// Subject, blank line, trailers; line breaks in values would forge trailers, so they are flattened.
function formatMessage(subject: string, trailers: Record<string, string>): string {
  const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
  const title = oneLine(subject);
  if (!title) throw new AppError("INVALID_INPUT", "A store commit needs a subject line.");
  const lines = Object.entries(trailers).map(([key, value]) => {
    if (!TRAILER_KEY.test(key)) throw new AppError("INVALID_INPUT", `"${key}" is not a commit trailer name.`);
    return `${key}: ${oneLine(value)}`;
  });
  return lines.length ? `${title}\n\n${lines.join("\n")}\n` : `${title}\n`;
}
