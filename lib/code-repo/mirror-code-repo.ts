import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { runCodeGit } from "./code-git";
import { ensureMirrorsFolder, mirrorsFolder } from "./ensure-mirrors-folder";
import { resolveCodeHead } from "./read-code-repo";

/** How long a mirror's last fetch counts as current; a refresh on demand ignores it. */
export const MIRROR_FETCH_INTERVAL_MS = 15 * 60_000;
const FETCHED_MARKER = "teammem-fetched";

export type MirrorOptions = {
  dataDir: string;
  projectId: string;
  codeRepo: string;
  /** Fetch now whatever the schedule says (a lead's "Check now"). */
  force?: boolean;
  /**
   * false (page reads): never wait for git's network work. A due fetch runs in the background
   * while the current head is served; a first clone throws MIRROR_PENDING until it is done.
   */
  wait?: boolean;
  now?: Date;
};

/** The mirror's folder and the commit at the head of the repository's default branch. */
export type MirrorHead = { dir: string; commit: string };

/** The reason given while a first clone runs in the background. */
export const MIRROR_PENDING = "the code repository is still being copied to this server; its citations are checked once it is here";

// Per mirror folder: the clone or fetch running now, and the last failure (not retried on every
// read of an unreachable repository: only after MIRROR_FETCH_INTERVAL_MS, or on demand).
const running = new Map<string, Promise<MirrorHead>>();
const failures = new Map<string, { at: number; error: unknown }>();

/**
 * Keeps a blobless bare mirror of a project's code repository in the data folder
 * (`code-mirrors/`): cloned once with `--filter=blob:none` (history as commits and trees only),
 * fetched when the last fetch is older than MIRROR_FETCH_INTERVAL_MS or on demand, and then given
 * the blobs of the head commit in one batch (git grep would otherwise fetch them one by one).
 * Nothing is checked out and nothing of the repository runs. Throws INVALID_INPUT naming the
 * problem when the repository cannot be read, DATA_DIR_UNAVAILABLE when `code-mirrors/` cannot be used.
 */
export async function syncCodeMirror(options: MirrorOptions): Promise<MirrorHead> {
  const dir = mirrorDir(options.dataDir, options.projectId, options.codeRepo);
  const now = options.now ?? new Date();
  const exists = existsSync(path.join(dir, "HEAD"));
  const current = exists ? await resolveCodeHead(dir) : null;
  const isDue = !exists || options.force === true || (await isFetchDue(dir, now));
  if (current && !isDue) return { dir, commit: current };
  // A local problem, named as one (not as the repository's), and not kept as a fetch failure.
  await ensureMirrorsFolder(options.dataDir);
  const failure = failures.get(dir);
  if (!options.force && failure && now.getTime() - failure.at < MIRROR_FETCH_INTERVAL_MS) {
    if (current) return { dir, commit: current };
    throw failure.error;
  }
  let work = running.get(dir);
  if (!work) {
    work = updateMirror(options.codeRepo, dir, exists, now).then(
      (head) => (failures.delete(dir), head),
      (error: unknown) => {
        failures.set(dir, { at: now.getTime(), error });
        throw error;
      },
    ).finally(() => running.delete(dir));
    running.set(dir, work);
  }
  if (options.wait !== false) return work;
  work.catch(() => undefined); // reported through `failures` on the next call
  if (current) return { dir, commit: current };
  throw new AppError("SERVER_BUSY", MIRROR_PENDING);
}

async function updateMirror(codeRepo: string, dir: string, exists: boolean, now: Date): Promise<MirrorHead> {
  if (exists) await fetchMirror(dir);
  else await cloneMirror(codeRepo, dir);
  const commit = await resolveCodeHead(dir);
  if (!commit) throw new AppError("INVALID_INPUT", "The code repository has no commits on its default branch.");
  await prefetchBlobs(dir, commit);
  // Written last: a fetch whose blobs did not arrive is due again.
  await writeFetchedMarker(dir, now);
  return { dir, commit };
}

/** Whether a clone or fetch of this mirror is running in this process. */
export function isMirrorBusy(dataDir: string, projectId: string, codeRepo: string): boolean {
  return running.has(mirrorDir(dataDir, projectId, codeRepo));
}

/** One folder per (project, repository): changing the setting starts a new mirror. */
export function mirrorDir(dataDir: string, projectId: string, codeRepo: string): string {
  const key = createHash("sha256").update(codeRepo).digest("hex").slice(0, 12);
  return path.join(mirrorsFolder(dataDir), `${projectId}-${key}.git`);
}

// Cloned into a temporary folder and renamed: a clone that fails halfway never looks like a mirror.
async function cloneMirror(codeRepo: string, dir: string): Promise<void> {
  const parent = path.dirname(dir);
  await mkdir(parent, { recursive: true });
  const temp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    // `--` ends the options: a "URL" such as --upload-pack=… is a path to git, never an option.
    await runCodeGit(parent, ["clone", "--bare", "--filter=blob:none", "--no-tags", "--quiet", "--", codeRepo, temp]);
    await rm(dir, { recursive: true, force: true });
    await rename(temp, dir);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function fetchMirror(dir: string): Promise<void> {
  await runCodeGit(dir, ["fetch", "--quiet", "--prune", "--no-tags", "--filter=blob:none", "origin", "+refs/heads/*:refs/heads/*"]);
}

// The blobs of the head tree that the blobless clone does not have yet, fetched in one request
// (what git's own lazy fetch does for one object at a time).
async function prefetchBlobs(dir: string, commit: string): Promise<void> {
  const listing = await runCodeGit(dir, ["rev-list", "--objects", "--missing=print", "--no-walk", commit]);
  const missing = listing.stdout.toString("utf8").split("\n").filter((line) => line.startsWith("?")).map((line) => line.slice(1));
  if (missing.length === 0) return;
  await runCodeGit(dir, ["-c", "fetch.negotiationAlgorithm=noop", "fetch", "--quiet", "origin", "--no-tags", "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin"], { input: missing.join("\n") + "\n" });
}

async function isFetchDue(dir: string, now: Date): Promise<boolean> {
  const marker = await stat(path.join(dir, FETCHED_MARKER)).catch(() => null);
  return !marker || now.getTime() - marker.mtime.getTime() >= MIRROR_FETCH_INTERVAL_MS;
}

async function writeFetchedMarker(dir: string, now: Date): Promise<void> {
  const marker = path.join(dir, FETCHED_MARKER);
  await writeFile(marker, `${now.toISOString()}\n`, "utf8");
  await utimes(marker, now, now);
}
