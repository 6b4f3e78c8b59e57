import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { AppError } from "../errors";
import { GitBatchReader } from "../git-process/git-batch-reader";
import { runGitProcess } from "../git-process/run-git-process";
import { objectDatabaseOf, writeObject } from "./git-objects";
import { TreeObject, type TreeObjectEntry } from "./tree-object";
import { processWide } from "../process-wide";

/**
 * The one module that runs git for the team store. Everything about the store goes through these
 * functions so that identity, timeouts, the environment guard and error translation live in one
 * place; the objects and refs of a commit are written in-process by its helpers git-objects.ts and
 * git-refs.ts (docs/store.md, "Writing objects").
 */

export type GitIdentity = { name: string; email: string };

export const SERVICE_IDENTITY: GitIdentity = { name: "teammem", email: "teammem@localhost" };

const GIT_TIMEOUT_MS = 60_000;
const FETCH_TIMEOUT_MS = 5 * 60_000;
// simple-git 4 strips every ambient GIT_* variable it is not told about; these are the ones
// operators rely on to reach a remote. Identity and dates are passed as options, never as env.
const ALLOWED_ENV = ["GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_TERMINAL_PROMPT", "GIT_ASKPASS"];

type GitOptions = { input?: string; identity?: GitIdentity };

function git(dir: string, options: GitOptions = {}): SimpleGit {
  const identity = options.identity ?? SERVICE_IDENTITY;
  return simpleGit({
    baseDir: dir,
    timeout: { block: GIT_TIMEOUT_MS },
    allowEnvironment: ALLOWED_ENV,
    config: gitConfig(identity),
    ...(options.input === undefined ? {} : { input: () => options.input }),
  });
}

// The committer is whoever runs the command (the service, or the approving lead).
function gitConfig(identity: GitIdentity): string[] {
  return ["core.quotepath=off", `user.name=${identity.name}`, `user.email=${identity.email}`];
}

const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

type RunOptions = { input?: string | Buffer; okExitCodes?: number[]; timeoutMs?: number };

/**
 * Plumbing runs through runGitProcess rather than simple-git (run-git-process.ts says why); a
 * failure throws an Error whose message is git's own, as simple-git's did.
 */
async function run(dir: string, args: string[], options: RunOptions = {}): Promise<{ stdout: Buffer; exitCode: number }> {
  const result = await runGitProcess(dir, args, {
    config: gitConfig(SERVICE_IDENTITY),
    env: {},
    allowedEnv: ALLOWED_ENV,
    input: options.input,
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
    maxOutputBytes: MAX_OUTPUT_BYTES,
  });
  if (result.failure === "timeout") throw new Error(`git ${args[0]} did not finish within ${Math.round((options.timeoutMs ?? GIT_TIMEOUT_MS) / 1000)} s`);
  if (result.failure === "overflow") throw new Error(`git ${args[0]} printed more than this server reads`);
  if (result.exitCode !== 0 && !(options.okExitCodes ?? []).includes(result.exitCode)) {
    const reason = result.stderr.trim() || `git ${args[0]} exited with ${result.exitCode}`;
    if (UNREADABLE_OBJECTS.test(reason)) throw storeDataUnreadable(reason);
    throw new Error(reason);
  }
  return result;
}

// What git says when objects the clone relies on are gone: the store it borrows them from
// (objects/info/alternates) moved or became unreadable, or a fetch was cut short.
const UNREADABLE_OBJECTS = /bad object|not a tree object|unable to normalize alternate|missing (?:blob|tree|commit) |unable to read [0-9a-f]{40}|Could not read [0-9a-f]{40}/i;

/** Answered 503, as an unreachable store is, instead of 500 "something went wrong". */
function storeDataUnreadable(reason: string): AppError {
  return new AppError("STORE_UNAVAILABLE", `Part of the team store could not be read (${reason.split("\n")[0]!.slice(0, 200)}): it may have moved or become unreachable; try again shortly.`);
}

async function raw(dir: string, args: string[], options: RunOptions = {}): Promise<string> {
  return (await run(dir, args, options)).stdout.toString("utf8");
}

/** Serialises git commands per repository (per process): concurrent commands collide on index.lock. */
const queues = processWide("repoLocks", () => new Map<string, Promise<unknown>>());
export function withRepoLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const key = path.resolve(dir);
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  queues.set(key, next.catch(() => undefined));
  return next;
}

export function isBareRepository(dir: string): boolean {
  return existsSync(path.join(dir, "HEAD")) && existsSync(path.join(dir, "objects"));
}

export function isWorkingClone(dir: string): boolean {
  return existsSync(path.join(dir, ".git"));
}

/** True when git can open `dir` as a repository (its .git and HEAD are readable). */
export async function isReadableRepository(dir: string): Promise<boolean> {
  try {
    await raw(dir, ["rev-parse", "--git-dir"]);
    return true;
  } catch {
    return false; // the answer to the question, not a failure: the caller names what is damaged
  }
}

export async function initBareRepository(dir: string): Promise<void> {
  await git(path.dirname(dir)).raw(["init", "--bare", "--initial-branch=main", dir]);
}

/** Fails with STORE_UNAVAILABLE (naming TEAMMEM_STORE_REMOTE) when the remote cannot be read. */
export async function assertRemoteReachable(remote: string): Promise<void> {
  try {
    await git(process.cwd()).listRemote([remote]);
  } catch (cause) {
    throw storeUnavailable(`The team store at ${displayRemote(remote)} cannot be read`, cause);
  }
}

export async function cloneRepository(remote: string, dir: string): Promise<void> {
  try {
    await git(path.dirname(dir)).clone(remote, dir, ["--origin", "origin"]);
  } catch (cause) {
    throw storeUnavailable(`The team store at ${displayRemote(remote)} could not be cloned`, cause);
  }
}

export async function originUrl(dir: string): Promise<string | null> {
  const remotes = await git(dir).getRemotes(true);
  return remotes.find((remote) => remote.name === "origin")?.refs.fetch ?? null;
}

/** Points the clone's origin at another URL (`git remote set-url`); nothing else in the clone changes. */
export async function setOriginUrl(dir: string, url: string): Promise<void> {
  await raw(dir, ["remote", "set-url", "origin", url]);
}

/**
 * Fetches the store's main into the clone's origin/main; "no-main" when the store has no main
 * branch (an empty store, or one that lost it). Never prunes: `--prune` deleted the clone's
 * origin/main when main disappeared from the store, and with it this server's record of the
 * history the store had lost (docs/store.md, "When the store's history is missing").
 */
export async function fetchOrigin(dir: string): Promise<"fetched" | "no-main"> {
  try {
    await run(dir, ["fetch", "--quiet", "--no-tags", "origin", "+refs/heads/main:refs/remotes/origin/main"], { timeoutMs: FETCH_TIMEOUT_MS });
    return "fetched";
  } catch (cause) {
    if (cause instanceof Error && NO_REMOTE_MAIN.test(cause.message)) return "no-main";
    throw storeUnavailable("Fetching the team store failed", cause);
  }
}

const NO_REMOTE_MAIN = /couldn't find remote ref refs\/heads\/main/i;

/**
 * The objects of the store's main, with no ref moved (`--refmap=`: only FETCH_HEAD), so that a
 * start-up check can ask the clone whether main still holds a commit before anything follows it.
 */
export async function fetchMainObjects(dir: string): Promise<void> {
  try {
    await run(dir, ["fetch", "--quiet", "--no-tags", "--refmap=", "origin", "refs/heads/main"], { timeoutMs: FETCH_TIMEOUT_MS });
  } catch (cause) {
    throw storeUnavailable("Fetching the team store failed", cause);
  }
}

/** The commit the store's main branch is at (one `git ls-remote`), null when it has none; STORE_UNAVAILABLE when the store cannot be read. */
export async function readStoreMain(remote: string): Promise<string | null> {
  let output: string;
  try {
    output = await raw(process.cwd(), ["ls-remote", "--", remote, "refs/heads/main"]);
  } catch (cause) {
    throw storeUnavailable(`The team store at ${displayRemote(remote)} cannot be read`, cause);
  }
  const id = output.split("\n").map((line) => line.split("\t")).find(([, name]) => name === "refs/heads/main")?.[0];
  return id !== undefined && isObjectId(id) ? id : null;
}

/** How many commits `ref` has in its history; null when git cannot say (objects missing). For messages, off the request path. */
/**
 * Whether the repository holds every object of `ref`'s history itself, or through an alternate
 * that still exists: a clone that borrowed objects from a store now gone (objects/info/alternates)
 * names commits it cannot push anywhere. Walks the whole history: for a repair's message only.
 */
export async function holdsWholeHistory(dir: string, ref: string): Promise<boolean> {
  if (!isObjectId(ref)) return false;
  const { exitCode } = await runForExitCode(dir, ["rev-list", "--objects", "--quiet", ref, "--"], [1, 128]);
  return exitCode === 0;
}

export async function countCommits(dir: string, ref: string): Promise<number | null> {
  try {
    const count = Number((await raw(dir, ["rev-list", "--count", ref, "--"])).trim());
    return Number.isInteger(count) ? count : null;
  } catch {
    return null; // the count only adds to a message; the message stands without it
  }
}

/** The commit a ref points at, or null when it does not exist (an empty store has no main). */
export async function resolveRef(dir: string, ref: string): Promise<string | null> {
  try {
    return (await raw(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).trim() || null;
  } catch {
    return null; // rev-parse --verify --quiet exits 1 for a missing ref: that is the answer
  }
}

export type TreeEntry = { path: string; blob: string; size: number };

/** Every file under `prefix` at `ref` (recursively), straight from git objects: no checkout. */
export async function listTree(dir: string, ref: string, prefix: string): Promise<TreeEntry[]> {
  const output = await raw(dir, ["ls-tree", "-r", "-l", "-z", "--full-tree", ref, "--", prefix]);
  return output
    .split("\0")
    .filter(Boolean)
    .flatMap((line) => {
      const match = /^\d+ blob ([0-9a-f]+)\s+(\d+|-)\t(.*)$/s.exec(line);
      if (!match) return [];
      return [{ blob: match[1]!, size: Number(match[2]), path: match[3]! }];
    });
}

/** Reads many blobs through the repository's long-running `git cat-file --batch`. */
export async function readBlobs(dir: string, blobs: string[]): Promise<Map<string, string>> {
  const found = await readBlobObjects(dir, blobs.filter(isObjectId));
  return new Map([...found.values()].map((file) => [file.blob, file.content]));
}

/** Reads one file at a ref, or null when it does not exist. */
export async function readFileAt(dir: string, ref: string, filePath: string): Promise<string | null> {
  const entries = await listTree(dir, ref, filePath);
  const entry = entries.find((candidate) => candidate.path === filePath);
  if (!entry) return null;
  return (await readBlobs(dir, [entry.blob])).get(entry.blob) ?? null;
}

/**
 * When each file under `prefix` was last written at `ref`. Author time, because it is when the
 * content was written (the store's equivalent of a memory file's mtime); commit time is when it
 * was approved.
 */
export async function lastChangeTimes(dir: string, ref: string, prefix: string): Promise<Map<string, Date>> {
  const output = await raw(dir, ["log", "-z", "--name-only", "--format=@@%at", ref, "--", prefix]);
  const changed = new Map<string, Date>();
  let current: Date | null = null;
  for (const token of output.split("\0")) {
    for (const line of token.split("\n")) {
      if (line.startsWith("@@")) current = new Date(Number(line.slice(2)) * 1000);
      else if (line && current && !changed.has(line)) changed.set(line, current);
    }
  }
  return changed;
}

export type FileCommit = { commit: string; authorName: string; authorEmail: string; date: Date; subject: string };

const FIELD = "\x1f";

/**
 * The commits that changed one file at `ref`, newest first, following renames. Author date,
 * as in lastChangeTimes: when the content was written, not when it was approved.
 */
export async function fileHistory(dir: string, ref: string, filePath: string, limit = 100): Promise<FileCommit[]> {
  let output: string;
  try {
    output = await raw(dir, ["log", `--max-count=${limit}`, "--follow", "-z", "--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s", ref, "--", filePath]);
  } catch (cause) {
    throw storeUnavailable("Reading the history of a store file failed", cause);
  }
  return output
    .split("\0")
    .filter((record) => record.trim() !== "")
    .flatMap((record) => {
      const [commit, authorName, authorEmail, date, ...subject] = record.trim().split(FIELD);
      if (!commit || authorName === undefined || authorEmail === undefined || !date) return [];
      return [{ commit, authorName, authorEmail, date: new Date(date), subject: subject.join(FIELD) }];
    });
}

export type CommitOptions = {
  dir: string;
  message: string;
  author: GitIdentity;
  committer?: GitIdentity;
  date?: Date;
};

/** Stages everything in the working clone and commits it; returns the new commit id. */
export async function commitAll(options: CommitOptions): Promise<string> {
  const repo = git(options.dir, { identity: options.committer ?? SERVICE_IDENTITY });
  await repo.add(["--all"]);
  const commitOptions: Record<string, string> = {
    "--author": `${options.author.name} <${options.author.email}>`,
  };
  if (options.date) commitOptions["--date"] = options.date.toISOString();
  await repo.commit(options.message, undefined, commitOptions);
  return (await repo.revparse(["HEAD"])).trim();
}

export async function pushMain(dir: string): Promise<void> {
  try {
    await git(dir).push("origin", "HEAD:refs/heads/main");
  } catch (cause) {
    throw storeUnavailable("Pushing to the team store failed", cause);
  }
}

// A remote URL may embed a password (https://user:token@host/...): never show or log it.
export function displayRemote(remote: string): string {
  return remote.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1***@");
}

function storeUnavailable(what: string, cause: unknown): AppError {
  return new AppError(
    "STORE_UNAVAILABLE",
    `${what}. Check that TEAMMEM_STORE_REMOTE names a git repository this machine can reach.`,
    { cause },
  );
}

// ---------------------------------------------------------------------------------------------
// Plumbing for the server's commits (lib/store/commit-change.ts). Commits are built from git
// objects only (blobs, trees and a commit object, written by git-objects.ts): the clone's working
// tree and index are never touched, so no reader or other process can observe a half-made commit.

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}

/** Runs git and reports its exit code instead of failing for the codes listed as answers. */
async function runForExitCode(dir: string, args: string[], answers: number[]): Promise<{ exitCode: number; stdout: string }> {
  const { exitCode, stdout } = await run(dir, args, { okExitCodes: answers });
  return { exitCode, stdout: stdout.toString("utf8") };
}

/**
 * Writes a blob into the repository's object database; returns its id. `written` collects the
 * ids of objects written for a commit, which a push on the same disk copies (pushCommit).
 */
export async function writeBlob(dir: string, content: string | Buffer, written?: string[], pending?: Promise<void>[]): Promise<string> {
  const database = await objectDatabaseOf(dir);
  if (database) {
    const id = await writeObject(database, "blob", typeof content === "string" ? Buffer.from(content, "utf8") : content, pending);
    written?.push(id);
    return id;
  }
  return (await raw(dir, ["hash-object", "-w", "--no-filters", "--stdin"], { input: content })).trim();
}

export type FileAt = { blob: string; content: string };

/**
 * Several files at one ref in a single `git cat-file --batch`: path → blob id and text, absent
 * paths left out. Cheaper than listTree + readBlobs per file when a commit is being prepared.
 */
export async function readFilesAt(dir: string, ref: string, filePaths: string[]): Promise<Map<string, FileAt>> {
  // The long-running reader is asked by commit id: a ref name is resolved here, fresh.
  const commit = isObjectId(ref) ? ref : await resolveRefQuickly(dir, ref);
  if (commit === null) return new Map();
  const found = await readBlobObjects(dir, filePaths.map((filePath) => `${commit}:${filePath}`));
  return new Map(filePaths.flatMap((filePath) => {
    const file = found.get(`${commit}:${filePath}`);
    return file ? [[filePath, file] as const] : [];
  }));
}

/** The text of one blob by id; null when it is missing or not a blob (a commit or tree id). */
export async function readBlobText(dir: string, blob: string): Promise<string | null> {
  if (!isObjectId(blob)) return null;
  return (await readBlobObjects(dir, [blob])).get(blob)?.content ?? null;
}

// `cat-file --batch` answers each request line in order: "<id> <type> <size>\n<bytes>\n", or
// "<request> missing\n". Only blobs are returned.
async function readBlobObjects(dir: string, requests: string[]): Promise<Map<string, FileAt>> {
  const objects = new Map<string, FileAt>();
  if (requests.length === 0) return objects;
  if (requests.some((request) => /[\n\r\0]/.test(request))) throw new AppError("INVALID_INPUT", "A store path cannot contain a line break.");
  const answers = await batchReaderFor(dir).read(requests);
  requests.forEach((request, index) => {
    const object = answers[index];
    if (object?.type === "blob") objects.set(request, { blob: object.id, content: object.content.toString("utf8") });
  });
  return objects;
}

const batchReaders = processWide("gitBatchReaders", () => new Map<string, GitBatchReader>());

/** The repository's long-running `cat-file --batch` (git-batch-reader.ts). */
function batchReaderFor(dir: string): GitBatchReader {
  const key = path.resolve(dir);
  let reader = batchReaders.get(key);
  if (!reader) {
    reader = new GitBatchReader(key, { config: ["core.quotepath=off"], allowedEnv: ALLOWED_ENV });
    batchReaders.set(key, reader);
  }
  return reader;
}

/**
 * The next read starts a new `cat-file --batch`: git reads a repository's alternates when it
 * starts, so a running one does not see objects borrowed after it began (fetch-on-same-disk.ts).
 * The old one answers what it was already asked, then stops on its idle timer.
 */
export function restartBatchReader(dir: string): void {
  batchReaders.delete(path.resolve(dir));
}

/**
 * Trees this process wrote or read lately, by object id (a tree, or a commit standing for its root
 * tree). Object ids name their content, so an entry is never stale. Each approval rewrites the
 * trees along one path, and listing a 10,000-entry project folder again was a git process and
 * ~30 ms of every commit: the next commit starts from the trees the last one wrote.
 */
const TREE_CACHE_SIZE = 16;
const treesById = new Map<string, TreeObject>();
const rootTreeOfCommit = new Map<string, string>();

function cacheKey(dir: string, id: string): string {
  return `${path.resolve(dir)}\0${id}`;
}

function rememberBounded<V>(map: Map<string, V>, key: string, value: V, size = TREE_CACHE_SIZE): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > size) map.delete(map.keys().next().value ?? "");
}

async function readTree(dir: string, treeOrCommit: string): Promise<TreeObject> {
  const tree = rootTreeOfCommit.get(cacheKey(dir, treeOrCommit)) ?? treeOrCommit;
  const cached = treesById.get(cacheKey(dir, tree));
  if (cached) return cached;
  const read = (await readTreeObject(dir, tree)) ?? TreeObject.fromEntries(parseLsTree(await raw(dir, ["ls-tree", "-z", tree])), await idBytesOf(dir));
  rememberBounded(treesById, cacheKey(dir, tree), read);
  return read;
}

async function idBytesOf(dir: string): Promise<number> {
  return (await objectDatabaseOf(dir))?.hash === "sha256" ? 32 : 20;
}

/**
 * A tree from its object, through the long-running batch reader: after another instance's commit
 * none of its trees are cached here, and an `ls-tree` process per level (10,000 lines for a large
 * project) was ~25 ms of the first commit after each switch. Null when this repository's object
 * format is unknown here, or the id is not a tree: `ls-tree` answers.
 */
async function readTreeObject(dir: string, treeOrCommit: string): Promise<TreeObject | null> {
  const database = await objectDatabaseOf(dir);
  if (!database || !isObjectId(treeOrCommit)) return null;
  const [object] = await batchReaderFor(dir).read([`${treeOrCommit}^{tree}`]);
  if (object?.type !== "tree") return null;
  return TreeObject.parse(object.content, await idBytesOf(dir));
}

function parseLsTree(output: string): TreeObjectEntry[] {
  return output
    .split("\0")
    .filter(Boolean)
    .flatMap((line) => {
      const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
      return match ? [{ mode: match[1]!, type: match[2]!, id: match[3]!, name: match[4]! }] : [];
    });
}

/** Set a path to a text (null removes it), to bytes, or to a blob already in the object database. */
export type TreeChange = { path: string; content: string | Buffer | null } | { path: string; blob: string };

/**
 * A new tree: `baseTree` (a tree or commit; null = empty) with each path set to its content or, for null, removed.
 * Only the folders along the changed paths are rewritten, each from the old one's bytes with the
 * changed entries spliced in (tree-object.ts); empty folders disappear, as in git.
 * Returns null when the result is empty.
 */
export async function writeTreeWithChanges(dir: string, baseTree: string | null, changes: TreeChange[], written: string[] = []): Promise<string | null> {
  // Every object of the new trees is written at once (writeObject's `pending`), and all are on disk when this returns.
  const pending: Promise<void>[] = [];
  const id = await buildTreeWithChanges(dir, baseTree, changes, written, pending);
  await Promise.all(pending);
  return id;
}

async function buildTreeWithChanges(dir: string, baseTree: string | null, changes: TreeChange[], written: string[], pending: Promise<void>[]): Promise<string | null> {
  const database = await objectDatabaseOf(dir);
  const base = baseTree ? await readTree(dir, baseTree) : TreeObject.empty(await idBytesOf(dir));
  const nested = new Map<string, TreeChange[]>();
  const here = new Map<string, TreeObjectEntry | null>();
  const blobs: Promise<void>[] = [];
  const blobEntry = (name: string, id: string): TreeObjectEntry => ({ mode: "100644", type: "blob", id, name });
  for (const change of changes) {
    const [head, ...rest] = change.path.split("/");
    if (!head) continue;
    refuseFileFolderSwap(base.find(head), head, rest.length > 0);
    if (rest.length > 0) {
      nested.set(head, [...(nested.get(head) ?? []), { ...change, path: rest.join("/") }]);
    } else if ("blob" in change) {
      here.set(head, blobEntry(head, change.blob));
    } else if (change.content === null) {
      here.set(head, null);
    } else {
      blobs.push(writeBlob(dir, change.content, written, pending).then((id) => void here.set(head, blobEntry(head, id))));
    }
  }
  // Objects are content-addressed, so writing blobs and sibling trees at once is safe.
  await Promise.all([
    ...blobs,
    ...[...nested].map(async ([name, subChanges]) => {
      const existing = base.find(name);
      const subtree = await buildTreeWithChanges(dir, existing?.type === "tree" ? existing.id : null, subChanges, written, pending);
      here.set(name, subtree ? { mode: "040000", type: "tree", id: subtree, name } : null);
    }),
  ]);
  let tree = base;
  for (const [name, entry] of here) tree = tree.with(name, entry);
  if (tree.size === 0) return null;
  const id = database
    ? await writeObject(database, "tree", tree.body, pending)
    : (await raw(dir, ["mktree", "-z"], { input: tree.entries().map((entry) => `${entry.mode} ${entry.type} ${entry.id}\t${entry.name}\0`).join("") })).trim();
  written.push(id);
  rememberBounded(treesById, cacheKey(dir, id), tree);
  return id;
}

/**
 * A change never turns a file into a folder or a folder into a file: git would take the swap, and
 * the file, or every memory in the folder, would leave the store without a retirement anyone
 * reviewed (a member's `team/MEMORY.md/x.md` replaced a project's index that way, and the next
 * approval's index dropped x.md). Refused with the name, so the change can be renamed.
 */
function refuseFileFolderSwap(existing: TreeObjectEntry | null, name: string, isFolderWanted: boolean): void {
  if (!existing) return;
  const isFolder = existing.type === "tree";
  if (isFolder === isFolderWanted) return;
  throw new AppError(
    "CONFLICT",
    isFolder
      ? `"${name}" is a folder of memories in the team store, so no file may take its name; choose another name.`
      : `"${name}" is a file in the team store, so it cannot hold other memories; choose another folder.`,
    { details: { path: name } },
  );
}

export type CreateCommitOptions = {
  dir: string;
  tree: string;
  parent: string | null;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  /**
   * The commit's author and committer time (whole seconds; default: now). The caller that knows
   * it can record the commit in the read model without asking git again.
   */
  at?: Date;
  /** Collects the commit's id, as writeBlob does. */
  written?: string[];
};

/**
 * Makes a commit object (no branch moves); returns its id. The object is written from its text
 * (git-objects.ts, else `hash-object -t commit`), so its time is the one given, without setting
 * GIT_*_DATE in an environment.
 */
export async function createCommit(options: CreateCommitOptions): Promise<string> {
  for (const identity of [options.author, options.committer]) assertUsableIdentity(identity);
  for (const id of [options.tree, options.parent ?? options.tree]) {
    if (!isObjectId(id)) throw new AppError("INVALID_INPUT", "A commit needs a tree and parent given as object ids.");
  }
  const seconds = Math.floor((options.at ?? new Date()).getTime() / 1000);
  const person = (role: string, identity: GitIdentity) => `${role} ${identity.name.trim()} <${identity.email.trim()}> ${seconds} +0000\n`;
  const object = [
    `tree ${options.tree}\n`,
    options.parent ? `parent ${options.parent}\n` : "",
    person("author", options.author),
    person("committer", options.committer),
    "\n",
    options.message,
  ].join("");
  if (options.message.includes("\0")) throw new AppError("INVALID_INPUT", "A commit message cannot contain a NUL character.");
  const database = await objectDatabaseOf(options.dir);
  const commit = database
    ? await writeObject(database, "commit", Buffer.from(object, "utf8"))
    : (await raw(options.dir, ["hash-object", "-t", "commit", "-w", "--stdin"], { input: object })).trim();
  options.written?.push(commit);
  rememberBounded(rootTreeOfCommit, cacheKey(options.dir, commit), options.tree);
  return commit;
}

function assertUsableIdentity(identity: GitIdentity): void {
  if (/[<>\n\r\0]/.test(identity.name + identity.email) || identity.name.trim() === "" || identity.email.trim() === "") {
    throw new AppError("INVALID_INPUT", "A commit author or committer has an empty name or email, or one with <, > or a line break.");
  }
}

// Refusals that mean "the branch moved": fetch and build again. Anything else is the network,
// credentials or the host, and is reported as the store being unavailable.
const MOVED_BRANCH = /\[rejected\]|non-fast-forward|fetch first|cannot lock ref|failed to update ref|stale info/i;

/** Pushes a commit to origin's main WITHOUT force: "rejected" when main has moved on. */
export async function pushCommit(dir: string, commit: string): Promise<"pushed" | "rejected"> {
  try {
    await git(dir).push("origin", `${commit}:refs/heads/main`);
    return "pushed";
  } catch (cause) {
    if (cause instanceof Error && MOVED_BRANCH.test(cause.message)) return "rejected";
    throw storeUnavailable("Pushing to the team store failed", cause);
  }
}

/**
 * Moves `ref` to `commit` only if it is still at `expected` (null: only if it does not exist yet):
 * "moved" when someone else moved it first.
 */
export async function compareAndSwapRef(dir: string, ref: string, commit: string, expected: string | null): Promise<"updated" | "moved"> {
  try {
    await raw(dir, ["update-ref", "-m", "teammem: commit", ref, commit, expected ?? ""]);
    return "updated";
  } catch (cause) {
    if (cause instanceof Error && MOVED_BRANCH.test(cause.message)) return "moved";
    throw storeUnavailable("Updating the team store's main branch failed", cause);
  }
}

/** Packs loose objects when git's own thresholds say so (what a push's receiving side runs). */
export async function collectGarbageWhenDue(dir: string): Promise<void> {
  await raw(dir, ["gc", "--auto", "--quiet"]);
}

/** True when `commit` is `ref` or one of its ancestors; false also for an unknown commit. */
export async function isAncestor(dir: string, commit: string, ref: string): Promise<boolean> {
  if (!isObjectId(commit)) return false;
  // Exit 0 = ancestor, 1 = not, 128 = the commit is not in this clone (so not on main either).
  const { exitCode } = await runForExitCode(dir, ["merge-base", "--is-ancestor", commit, ref], [1, 128]);
  return exitCode === 0;
}

export type TextMerge = { isClean: true; text: string } | { isClean: false };

/**
 * Three-way merge of plain texts with `git merge-file`. Only a clean result carries text: the
 * conflicted output (with markers) is never handed out, so it cannot end up in the store.
 */
export async function mergeTexts(base: string, ours: string, theirs: string): Promise<TextMerge> {
  return withTempFiles({ base, ours, theirs }, async (files) => {
    // merge-file exits with the number of conflicts (capped at 127); negative (255) on error.
    const conflictCodes = Array.from({ length: 127 }, (_, index) => index + 1);
    const { exitCode, stdout } = await runForExitCode(
      path.dirname(files.base),
      ["merge-file", "-p", "-q", "--diff3", files.ours, files.base, files.theirs],
      conflictCodes,
    );
    return exitCode === 0 ? { isClean: true, text: stdout } : { isClean: false };
  });
}

async function withTempFiles<K extends string, T>(texts: Record<K, string>, work: (files: Record<K, string>) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "teammem-git-"));
  try {
    const files = {} as Record<K, string>;
    for (const [name, text] of Object.entries(texts) as [K, string][]) {
      files[name] = path.join(dir, name);
      await writeFile(files[name], text);
    }
    return await work(files);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The last commit that changed a file: id, author time and author name. */
export type FileChange = { commit: string; at: Date; author: string };

/** One commit of a log, with the files it changed. */
export type LoggedCommit = { commit: string; at: Date; authorName: string; authorEmail: string; subject: string; paths: string[] };

/**
 * The commits in `range` that changed files under `prefix`, newest first, with those files.
 * `range` is `from..to` for an update (cost grows with the commits in between, not with history)
 * or a single ref for a rebuild. Author time, as in lastChangeTimes.
 */
export async function readChangeLog(dir: string, range: string, prefix: string): Promise<LoggedCommit[]> {
  const output = await raw(dir, ["log", "-z", "--no-renames", "--name-only", "--format=@@%H%x1f%at%x1f%an%x1f%ae%x1f%s", range, "--", prefix]);
  const commits: LoggedCommit[] = [];
  for (const token of output.split("\0")) {
    for (const line of token.split("\n")) {
      if (line.startsWith("@@")) {
        const [commit, seconds, authorName, authorEmail, ...subject] = line.slice(2).split(FIELD);
        commits.push({ commit: commit!, at: new Date(Number(seconds) * 1000), authorName: authorName ?? "", authorEmail: authorEmail ?? "", subject: subject.join(FIELD), paths: [] });
      } else if (line && commits.length > 0) commits.at(-1)!.paths.push(line);
    }
  }
  return commits;
}

/** For each file in a change log, the newest commit that changed it. */
export function lastChangesOf(commits: LoggedCommit[]): Map<string, FileChange> {
  const changes = new Map<string, FileChange>();
  for (const commit of commits) {
    for (const filePath of commit.paths) if (!changes.has(filePath)) changes.set(filePath, { commit: commit.commit, at: commit.at, author: commit.authorName });
  }
  return changes;
}

export type ChangedPath = { path: string; isDeleted: boolean; /** The file's blob at `to`; null when deleted. */ blob: string | null };

/**
 * Files under `prefix` (a folder ending in `/`, or "" for all) that differ between two commits
 * (added, changed or deleted), no renames, each with its blob at `to`: reading a changed file by blob id finds the object directly, where
 * a `<commit>:<path>` request walks the project's tree again per file (~1 ms a file at 10,000).
 */
export async function changedPaths(dir: string, from: string, to: string, prefix: string): Promise<ChangedPath[]> {
  return (await changedPathsBetween(dir, from, to)).filter((change) => change.path.startsWith(prefix));
}

/**
 * Every file that differs between two commits, remembered: after another instance's commit the
 * read model, the project's MEMORY.md and the duplicate finder each follow the same diff, and a
 * `diff-tree` process per follower was ~10 ms of CPU each on a small server. Commits never
 * change, so a remembered diff is never stale.
 */
const DIFF_CACHE_SIZE = 8;
const diffsBetween = processWide("gitDiffsBetween", () => new Map<string, Promise<ChangedPath[]>>());

function changedPathsBetween(dir: string, from: string, to: string): Promise<ChangedPath[]> {
  const key = `${path.resolve(dir)}\0${from}\0${to}`;
  const known = diffsBetween.get(key);
  if (known) return known;
  const diff = readDiff(dir, from, to);
  rememberBounded(diffsBetween, key, diff, DIFF_CACHE_SIZE);
  diff.catch(() => diffsBetween.delete(key)); // a failure (a commit not fetched yet) is asked again
  return diff;
}

/**
 * The diff of two commits from their trees, read through the long-running batch reader: after
 * each turn of the other instance, a `diff-tree` process per pair of commits was ~20 ms of the
 * server (most of it starting the process) inside the store lease. Equal subtrees are skipped by
 * id; what it reports is what `diff-tree -r --no-renames` reports, in the same order.
 */
async function readDiff(dir: string, from: string, to: string): Promise<ChangedPath[]> {
  if (!(await objectDatabaseOf(dir))) return readDiffFromGit(dir, from, to);
  const changes: ChangedPath[] = [];
  const [before, after] = await Promise.all([readTree(dir, from), readTree(dir, to)]);
  await collectChanges(dir, before, after, "", changes);
  return changes;
}

async function collectChanges(dir: string, before: TreeObject, after: TreeObject, base: string, changes: ChangedPath[]): Promise<void> {
  const empty = TreeObject.empty(await idBytesOf(dir));
  for (const change of TreeObject.changedEntries(before, after)) {
    const name = change.before?.name ?? change.after!.name;
    const [wasFolder, isFolder] = [change.before?.type === "tree", change.after?.type === "tree"];
    if (wasFolder || isFolder) {
      const [from, to] = await Promise.all([wasFolder ? readTree(dir, change.before!.id) : empty, isFolder ? readTree(dir, change.after!.id) : empty]);
      await collectChanges(dir, from, to, `${base}${name}/`, changes);
    }
    if (change.after && !isFolder) changes.push({ path: base + name, isDeleted: false, blob: change.after.id });
    else if (change.before && !wasFolder) changes.push({ path: base + name, isDeleted: true, blob: null });
  }
}

async function readDiffFromGit(dir: string, from: string, to: string): Promise<ChangedPath[]> {
  // --raw -z: ":<old mode> <new mode> <old blob> <new blob> <status>\0<path>\0" per file.
  const output = await raw(dir, ["diff-tree", "-r", "-z", "--no-renames", "--raw", "--no-abbrev", from, to]);
  const tokens = output.split("\0");
  const changes: ChangedPath[] = [];
  for (let index = 0; index + 1 < tokens.length; index += 2) {
    const fields = tokens[index]!.split(" ");
    const isDeleted = fields[4]?.startsWith("D") ?? false;
    const blob = fields[3];
    changes.push({ path: tokens[index + 1]!, isDeleted, blob: isDeleted || blob === undefined || !isObjectId(blob) ? null : blob });
  }
  return changes;
}

/**
 * `resolveRef` without a git process, for hot paths: reads the loose ref file, and falls back to
 * git when the ref is packed or the file holds anything but an object id. Read synchronously: a
 * 41-byte file takes microseconds, where `fs/promises` made four trips through the thread pool,
 * ~0.4 ms of the server's thread on every recall.
 */
export async function resolveRefQuickly(dir: string, ref: string): Promise<string | null> {
  try {
    const value = readFileSync(path.join(dir, ".git", ref), "utf8").trim();
    if (isObjectId(value)) return value;
  } catch {
    // not a loose ref: a fresh clone keeps its remote-tracking refs in packed-refs
    const packed = await readPackedRef(dir, ref);
    if (packed) return packed;
  }
  return resolveRef(dir, ref);
}

/** The ref's line in packed-refs ("<id> <ref>"), read as git writes it; null when absent. */
async function readPackedRef(dir: string, ref: string): Promise<string | null> {
  const text = await readFile(path.join(dir, ".git", "packed-refs"), "utf8").catch(() => "");
  for (const line of text.split("\n")) {
    const [id, name] = line.split(" ");
    if (name === ref && id !== undefined && isObjectId(id)) return id;
  }
  return null;
}

/** True when this clone has the commit (another instance's commit may not be fetched yet). */
export async function hasCommit(dir: string, commit: string): Promise<boolean> {
  if (!isObjectId(commit)) return false;
  // Asked of the long-running reader first (a process was ~10 ms of CPU on every read-model
  // check); only its "missing" is asked again of git, which also reads alternates added since.
  const [object] = await batchReaderFor(dir).read([`${commit}^{commit}`]);
  if (object?.type === "commit") return true;
  const { exitCode } = await runForExitCode(dir, ["cat-file", "-e", `${commit}^{commit}`], [1, 128]);
  return exitCode === 0;
}

/** Whether `blob` was ever `filePath`'s content in the history of `ref` (one `git log -1 --find-object`). */
export async function wasBlobAt(dir: string, ref: string, filePath: string, blob: string): Promise<boolean> {
  if (!isObjectId(blob)) return false;
  return (await raw(dir, ["log", "-1", "--format=%H", "--no-renames", `--find-object=${blob}`, ref, "--", filePath])).trim() !== "";
}

/** Every blob `filePath` has held in the history of `ref`, newest first (one `git log --raw`). */
export async function listBlobsOf(dir: string, ref: string, filePath: string): Promise<string[]> {
  const output = await raw(dir, ["log", "--format=", "--raw", "--no-abbrev", "--no-renames", ref, "--", filePath]);
  const blobs = new Set<string>();
  // `:100644 100644 <old> <new> M\t<path>`: the new side is the version that commit made.
  for (const line of output.split("\n")) {
    const blob = line.startsWith(":") ? line.split(" ")[3] : undefined;
    if (blob && isObjectId(blob) && !/^0+$/.test(blob)) blobs.add(blob);
  }
  return [...blobs];
}

/** The newest commit at or before `ref` that changed `filePath` (one `git log -1`), or null. */
export async function lastCommitOf(dir: string, ref: string, filePath: string): Promise<{ commit: string; at: Date } | null> {
  const output = (await raw(dir, ["log", "-1", "--no-renames", "--format=%H %at", ref, "--", filePath])).trim();
  const [commit, seconds] = output.split(" ");
  return commit && seconds ? { commit, at: new Date(Number(seconds) * 1000) } : null;
}
