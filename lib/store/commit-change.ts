import type { Config } from "../config";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { log } from "../log";
import { readProjectIndex, rememberProjectIndex } from "../read-model/read-project-index";
import { announceOwnCommit } from "../read-model/own-commit-listeners";
import { readRecordedCommit, recordOwnCommits, syncReadModel, type OwnCommit } from "../read-model/sync-read-model";
import type { SecretFinding } from "../secrets/secret-finding";
import { reachFaultPoint } from "./fault-points";
import { isAncestor, isObjectId, pushCommit, readBlobText, readFilesAt, resolveRefQuickly, wasBlobAt, withRepoLock, type GitIdentity } from "./git";
import { prepareStoreCommit, type PreparedCommit } from "./prepare-store-commit";
import { pushOnSameDisk } from "./push-on-same-disk";
import { fetchStore } from "./fetch-on-same-disk";
import { MAIN, refreshStore } from "./read-store";
import { isMemoryFile } from "./regenerate-project-index";
import { assertHeadKeepsRecordedCommit } from "./store-history";
import { releaseStaleMainLock, mainLockedError } from "./stale-ref-lock";
import { jitter, sleep, withStoreLock } from "./store-lock";
import { projectDir, ProjectId } from "./store-manifest";

export type StoreChange = {
  projectId: string;
  projectName?: string;
  /** Relative to projects/<id>/, e.g. feedback_x.md. */
  path: string;
  /** null = retire (delete) the file. */
  content: string | null;
  /** The blob the change was made against; null = the file was absent. */
  baseBlob: string | null;
};

export type CommitChangeOptions = {
  change: StoreChange;
  /** The proposer. */
  author: GitIdentity;
  /** The approving lead. */
  committer: GitIdentity;
  subject: string;
  /** The subject for a merged text: the merge may have taken another name or type from the store. */
  mergedSubject?: (content: string) => string;
  /** e.g. Proposal-Id, Approved-by, Reviewed-by, Source, Base-Commit; "Secret-Scan: pass" is added. */
  trailers: Record<string, string>;
  /**
   * Called with the commit once it exists locally, BEFORE it is pushed (the caller records it).
   * Called again with the new commit when a retry rebuilds it; a throw aborts before the push.
   */
  onIntent: (commit: string) => Promise<void>;
  /** Attempts when the push is refused as non-fast-forward, with jittered backoff. */
  maxAttempts?: number;
};

/**
 * `merged`: the file had changed since the base and a clean three-way merge was committed.
 * `conflicted`: nothing committed; `ours` is the store's current text, `theirs` the proposal's
 * (null = absent or retired), `base` the text both started from (null = absent or unknown here).
 * `conflictingFields` names frontmatter fields, "body", or "file" (edit against retire, or a
 * file whose frontmatter could not be read and was merged as a whole).
 */
export type CommitOutcome =
  | { status: "committed"; commit: string; merged: boolean; blob: string | null }
  | { status: "unchanged"; commit: string }
  | { status: "conflicted"; base: string | null; ours: string | null; theirs: string | null; conflictingFields: string[] }
  | { status: "blocked_secret"; findings: SecretFinding[] }
  | { status: "case_twin"; twin: string };

/** One lease for the whole store: one writer at a time across app instances sharing a database. */
export const STORE_LOCK_NAME = "team-store";
const DEFAULT_MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 1_000;

/** At most this many queued changes share one lease, one fetch and one push. */
const MAX_BATCH = 16;

type Queued = {
  options: CommitChangeOptions;
  message: string;
  resolve: (outcome: CommitOutcome) => void;
  reject: (error: unknown) => void;
};

/** Per clone: changes waiting for the store, and whether a worker is taking them. */
const waiting = new Map<string, Queued[]>();
const working = new Set<string>();

/**
 * Commits one approved change to the team store as docs/store.md steps 1-7 describe: fetch,
 * take or three-way merge against the head, secret scan, one commit on top of the head with the
 * regenerated MEMORY.md, record the intent, push without force, retry when the branch moved.
 * A conflict or a secret commits nothing. Network failures throw STORE_UNAVAILABLE.
 *
 * Changes that arrive while another is being committed wait, and then go together: one lease,
 * one fetch and one push for all of them, still one commit each, in order, each with its own
 * message and recorded intent (docs/store.md, "Approvals that arrive together").
 */
export function commitChange(config: Config, db: Db, options: CommitChangeOptions): Promise<CommitOutcome> {
  assertValidChange(options.change);
  const message = commitMessage(options.subject, options.trailers);
  const clone = config.storeCloneDir;
  return new Promise<CommitOutcome>((resolve, reject) => {
    waiting.set(clone, [...(waiting.get(clone) ?? []), { options, message, resolve, reject }]);
    if (!working.has(clone)) void work(config, db);
  });
}

async function work(config: Config, db: Db): Promise<void> {
  const clone = config.storeCloneDir;
  working.add(clone);
  try {
    for (let queue = waiting.get(clone) ?? []; queue.length > 0; queue = waiting.get(clone) ?? []) {
      const batch = queue.slice(0, MAX_BATCH);
      waiting.set(clone, queue.slice(batch.length));
      await commitBatch(config, db, batch).catch((error: unknown) => {
        for (const item of batch) item.reject(error); // settling twice is a no-op for a promise
      });
    }
  } finally {
    working.delete(clone);
  }
}

type Chained = { item: Queued; prepared: Extract<PreparedCommit, { status: "ready" }> };

async function commitBatch(config: Config, db: Db, batch: Queued[]): Promise<void> {
  const clone = config.storeCloneDir;
  const maxAttempts = Math.max(1, Math.min(...batch.map((item) => item.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)));
  await withStoreLock(db, STORE_LOCK_NAME, async (lease) => {
    reachFaultPoint(config, "after-lock");
    // docs/store.md step 1: when the clone is at the newest commit on record, the first attempt
    // builds on it without a fetch; a push from outside teammem makes the push fail, and the
    // next attempt fetches.
    const isCloneCurrent = await isCloneAtRecordedCommit(config, db);
    // A lock on main left by a git process that died would refuse every push (docs/store.md,
    // "Pushing to a store on the same disk"); one stat when there is none.
    let mainLock = await releaseStaleMainLock(clone);
    let pending = batch;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const { chain, provisional } = await withRepoLock(clone, () => buildChain(config, db, pending, attempt > 1 || !isCloneCurrent));
      if (chain.length === 0) return;
      // The lease is short: make sure no other instance took it over during a long pause before pushing.
      await lease.confirm();
      // A successful push also moves this clone's origin/main, the ref every reader reads, so
      // readers see the commits at once without another fetch. Pushing the last pushes them all.
      const push = { base: chain[0]!.prepared.parent, objects: chain.flatMap((link) => link.prepared.written) };
      const tip = chain.at(-1)!.prepared.commit;
      if ((await withRepoLock(clone, async () => (await pushOnSameDisk(clone, tip, push)) ?? (await pushCommit(clone, tip)))) === "pushed") {
        reachFaultPoint(config, "after-push");
        await updateReadModel(config, db, chain.map(({ item, prepared }) => ownCommit(item, prepared)));
        for (const { item, prepared } of chain) item.resolve({ status: "committed", commit: prepared.commit, merged: prepared.merged, blob: prepared.blob });
        for (const { item, outcome } of provisional) item.resolve(outcome);
        return;
      }
      // docs/store.md step 7: main moved on (or is locked); build the commits again on the new head after a jittered pause.
      pending = [...chain.map((link) => link.item), ...provisional.map((entry) => entry.item)].sort((a, b) => batch.indexOf(a) - batch.indexOf(b));
      log("info", "store.push_retry", { attempt, maxAttempts, commits: chain.length });
      mainLock = await releaseStaleMainLock(clone);
      if (attempt < maxAttempts) await sleep(jitter(Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS)));
    }
    if (mainLock.status === "held") throw mainLockedError(mainLock);
    throw new AppError(
      "STORE_UNAVAILABLE",
      "The team store kept changing while this change was being saved; nothing was lost, try the approval again.",
    );
  });
}

/**
 * Steps 1-5 for each change in order, each commit on top of the one before. An outcome that
 * commits nothing (conflicted, unchanged, blocked) is final when it was decided against the
 * store's head, and provisional (settled only once the push lands) when decided against a commit
 * of this chain. A change whose intent cannot be recorded is dropped from the chain.
 */
async function buildChain(config: Config, db: Db, items: Queued[], fetch: boolean): Promise<{ chain: Chained[]; provisional: { item: Queued; outcome: CommitOutcome }[] }> {
  const chain: Chained[] = [];
  const provisional: { item: Queued; outcome: CommitOutcome }[] = [];
  const clone = config.storeCloneDir;
  if (fetch) await fetchStore(clone);
  // Step 1: a store that lost the history on record (re-created empty, main deleted or reset) gets no commit.
  await assertHeadKeepsRecordedCommit(clone, await resolveRefQuickly(clone, MAIN), await readRecordedCommit(db));
  let baseHead: string | null = null;
  for (const item of items) {
    const { change } = item.options;
    const tip = chain.at(-1)?.prepared.commit;
    // The project's index at the tip is that of its own last commit in this chain, or, when the
    // chain has not touched the project, the one at the head the chain started from.
    const projectTip = chain.findLast((link) => link.item.options.change.projectId === change.projectId)?.prepared.commit;
    const prepared = await prepareStoreCommit(config, {
      change,
      author: item.options.author,
      committer: item.options.committer,
      message: item.message,
      mergedMessage: item.options.mergedSubject ? (content) => commitMessage(item.options.mergedSubject!(content), item.options.trailers) : undefined,
      fetch: false,
      head: tip,
      projectIndex: (head) => readProjectIndex(config, db, change.projectId, projectTip ?? (tip === undefined ? head : (baseHead ?? head))),
    });
    if (tip === undefined && prepared.status === "ready") baseHead = prepared.parent;
    if (prepared.status !== "ready") {
      if (tip === undefined) item.resolve(prepared);
      else provisional.push({ item, outcome: prepared });
      continue;
    }
    reachFaultPoint(config, "after-objects");
    try {
      // docs/store.md step 5: the intent is on record before the push, so a crash in between is reconciled later.
      await item.options.onIntent(prepared.commit);
    } catch (error) {
      item.reject(error);
      continue;
    }
    reachFaultPoint(config, "after-intent");
    if (prepared.projectIndex) rememberProjectIndex(change.projectId, prepared.commit, prepared.projectIndex);
    chain.push({ item, prepared });
  }
  return { chain, provisional };
}

function ownCommit(item: Queued, prepared: Chained["prepared"]): OwnCommit {
  return {
    parent: prepared.parent,
    commit: prepared.commit,
    at: prepared.at,
    author: item.options.author,
    subject: prepared.message.split("\n", 1)[0]!,
    projectId: item.options.change.projectId,
    path: item.options.change.path,
    blob: prepared.blob,
    content: prepared.content,
  };
}

async function isCloneAtRecordedCommit(config: Config, db: Db): Promise<boolean> {
  const [head, recorded] = await Promise.all([resolveRefQuickly(config.storeCloneDir, MAIN), readRecordedCommit(db)]);
  return head !== null && head === recorded;
}

// The read model follows the batch's commits at once, in one write (docs/store.md, "The read
// model"): from what this instance knows of its own commits when the read model was at the first
// one's parent, else from git. It is a cache: a failure here is logged and the next read catches
// up from the commits' diff.
async function updateReadModel(config: Config, db: Db, owns: OwnCommit[]): Promise<void> {
  try {
    if (await recordOwnCommits(db, owns)) for (const own of owns) announceOwnCommit(own);
    else await syncReadModel(config, db, { mayFetch: false });
  } catch (error) {
    log("warn", "read_model.update_failed", { name: (error as Error)?.name ?? "unknown" });
  }
}

/** For reconciliation after a crash: did the intended commit land (an ancestor of origin's main)? */
export async function isCommitOnMain(config: Config, commit: string): Promise<boolean> {
  if (!isObjectId(commit)) return false;
  // Throws STORE_UNAVAILABLE rather than answer "no" from a stale copy of the store.
  await refreshStore(config, { mustReach: true });
  return isAncestor(config.storeCloneDir, commit, MAIN);
}

/** One project file at the clone's copy of origin's main (as last fetched), or null. */
export async function readCurrentFile(config: Config, projectId: string, path: string): Promise<{ blob: string; content: string } | null> {
  assertValidLocation(projectId, path);
  if (!(await resolveRefQuickly(config.storeCloneDir, MAIN))) return null;
  const filePath = `${projectDir(projectId)}/${path}`;
  return (await readFilesAt(config.storeCloneDir, MAIN, [filePath])).get(filePath) ?? null;
}

/**
 * The text of one version of a project file, named by its blob id (a proposal's base): the
 * current one or any earlier one in the store's history, else null. A blob of another file or
 * another project is null as well: an id a caller sends must not read what they may not see.
 */
export async function readFileVersion(config: Config, projectId: string, path: string, blob: string): Promise<string | null> {
  const current = await readCurrentFile(config, projectId, path);
  if (current?.blob === blob) return current.content;
  if (!(await wasBlobAt(config.storeCloneDir, MAIN, `${projectDir(projectId)}/${path}`, blob))) return null;
  return readBlobText(config.storeCloneDir, blob);
}

/** The text of a blob by id (e.g. a proposal's base), or null when the store does not have it. */
export async function readBlob(config: Config, blob: string): Promise<string | null> {
  return readBlobText(config.storeCloneDir, blob);
}

const TRAILER_KEY = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;
const SECRET_SCAN_TRAILER = "Secret-Scan";

/** Subject, blank line, `Key: value` trailers, and `Secret-Scan: pass` last. */
export function commitMessage(subject: string, trailers: Record<string, string>): string {
  const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
  const title = oneLine(subject);
  if (!title) throw new AppError("INVALID_INPUT", "A store commit needs a subject line.");
  const lines = Object.entries(trailers)
    .filter(([key]) => key.toLowerCase() !== SECRET_SCAN_TRAILER.toLowerCase())
    .map(([key, value]) => {
      if (!TRAILER_KEY.test(key)) throw new AppError("INVALID_INPUT", `"${key}" is not a commit trailer name (letters, digits and dashes).`);
      return `${key}: ${oneLine(value)}`;
    });
  return `${title}\n\n${[...lines, `${SECRET_SCAN_TRAILER}: pass`].join("\n")}\n`;
}

function assertValidChange(change: StoreChange): void {
  assertValidLocation(change.projectId, change.path);
  if (change.baseBlob !== null && !isObjectId(change.baseBlob)) {
    throw new AppError("INVALID_INPUT", "The change's base must be a git blob id or null.");
  }
  if (change.projectName !== undefined && change.projectName.trim().length > 200) {
    throw new AppError("INVALID_INPUT", "A project name is at most 200 characters.");
  }
}

function assertValidLocation(projectId: string, path: string): void {
  if (!ProjectId.safeParse(projectId).success) {
    throw new AppError("INVALID_INPUT", `"${projectId}" is not a project id (lowercase letters, digits, dots or dashes).`);
  }
  if (!isMemoryFile(path)) {
    throw new AppError("INVALID_INPUT", "A memory's path must be a relative .md file name other than MEMORY.md, without `..` segments.");
  }
}
