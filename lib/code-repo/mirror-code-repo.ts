import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { runCodeGit } from "./code-git";
import { resolveCodeHead } from "./read-code-repo";

/** How long a mirror's last fetch counts as current; a refresh on demand ignores it. */
export const MIRROR_FETCH_INTERVAL_MS = 15 * 60_000;
const FETCHED_MARKER = "teammem-fetched";

export type MirrorOptions = { dataDir: string; projectId: string; codeRepo: string; force?: boolean; now?: Date };

/** The mirror's folder and the commit at the head of the repository's default branch. */
export type MirrorHead = { dir: string; commit: string };

/**
 * Keeps a blobless bare mirror of a project's code repository in the data folder
 * (`code-mirrors/`): cloned once with `--filter=blob:none` (history as commits and trees only),
 * fetched when the last fetch is older than MIRROR_FETCH_INTERVAL_MS or on demand, and then given
 * the blobs of the head commit in one batch (git grep would otherwise fetch them one by one).
 * Nothing is checked out and nothing of the repository runs. Throws INVALID_INPUT naming the
 * problem when the repository cannot be read.
 */
export async function syncCodeMirror(options: MirrorOptions): Promise<MirrorHead> {
  const dir = mirrorDir(options.dataDir, options.projectId, options.codeRepo);
  const now = options.now ?? new Date();
  if (!existsSync(path.join(dir, "HEAD"))) await cloneMirror(options.codeRepo, dir);
  else if (options.force || (await isFetchDue(dir, now))) await fetchMirror(dir);
  else {
    const commit = await resolveCodeHead(dir);
    if (commit) return { dir, commit };
  }
  await writeFetchedMarker(dir, now);
  const commit = await resolveCodeHead(dir);
  if (!commit) throw new AppError("INVALID_INPUT", "The code repository has no commits on its default branch.");
  await prefetchBlobs(dir, commit);
  return { dir, commit };
}

/** One folder per (project, repository): changing the setting starts a new mirror. */
export function mirrorDir(dataDir: string, projectId: string, codeRepo: string): string {
  const key = createHash("sha256").update(codeRepo).digest("hex").slice(0, 12);
  return path.join(dataDir, "code-mirrors", `${projectId}-${key}.git`);
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
