import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config";
import { isInsideFolder } from "../memdir/is-inside-folder";

/**
 * Why a project's code repository may not be this server's own data, or null. The staleness
 * checks tell which cited paths exist and grep for cited words, so a lead who pointed them at
 * the team store (or the data folder: the store's clone, other projects' code mirrors) could
 * learn what another project's memories hold. A server path or `file://` URL is compared after
 * following links; a remote URL is never the server's data.
 */
export function findCodeRepoInTeammemData(config: Pick<Config, "dataDir" | "storeRemote" | "storeCloneDir">, codeRepo: string): string | null {
  const local = localPathOf(codeRepo);
  if (local === null) return null;
  const own = [config.dataDir, config.storeCloneDir, localPathOf(config.storeRemote)].flatMap((folder) => (folder === null ? [] : [realOrResolved(folder)]));
  // A checkout that holds the data folder is fine: its untracked .teammem/ is not in its git objects.
  const readsOwnData = gitLocationsOf(realOrResolved(local)).some((location) => own.some((folder) => isInsideFolder(folder, location)));
  return readsOwnData ? "it is teammem's own data (the team store or the data folder); give the project's code repository" : null;
}

/**
 * Every folder git reads a repository's objects from: the folder, its `.git` (a link, or a file
 * saying `gitdir: …`), a worktree's `commondir`, and `objects/info/alternates`, followed a few
 * levels. A folder holding only `.git` → `gitdir: <the team store>` is the team store to git.
 */
function gitLocationsOf(repo: string): string[] {
  const locations = new Set<string>([repo]);
  const gitDirs = [repo, realOrResolved(path.join(repo, ".git"))];
  const gitFile = readSmallText(path.join(repo, ".git"));
  const pointed = gitFile?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  if (pointed) gitDirs.push(realOrResolved(path.resolve(repo, pointed)));
  for (let index = 0; index < gitDirs.length && index < MAX_GIT_LOCATIONS; index++) {
    const gitDir = gitDirs[index]!;
    locations.add(gitDir);
    const common = readSmallText(path.join(gitDir, "commondir"))?.trim();
    if (common) gitDirs.push(realOrResolved(path.resolve(gitDir, common)));
    const objects = path.join(gitDir, "objects");
    for (const line of readSmallText(path.join(objects, "info", "alternates"))?.split("\n") ?? []) {
      const alternate = line.trim();
      // An alternate names an objects folder; its repository is the folder above it.
      if (alternate && !alternate.startsWith("#")) gitDirs.push(path.dirname(realOrResolved(path.resolve(objects, alternate))));
    }
  }
  for (const gitDir of gitDirs) locations.add(gitDir);
  return [...locations];
}

const MAX_GIT_LOCATIONS = 20;

function readSmallText(file: string): string | null {
  try {
    return readFileSync(file, "utf8").slice(0, 4096);
  } catch {
    return null; // absent, a folder, unreadable: nothing to follow
  }
}

function localPathOf(location: string): string | null {
  if (location.startsWith("/")) return location;
  if (!/^file:\/\//i.test(location)) return null;
  try {
    return fileURLToPath(location);
  } catch {
    return null;
  }
}

// A path that does not exist (yet) is compared as written: the check runs again before each use.
function realOrResolved(location: string): string {
  try {
    return realpathSync(location);
  } catch {
    return path.resolve(location);
  }
}
