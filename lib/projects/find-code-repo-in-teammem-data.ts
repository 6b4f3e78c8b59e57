import { realpathSync } from "node:fs";
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
  const candidate = realOrResolved(local);
  const own = [config.dataDir, config.storeCloneDir, localPathOf(config.storeRemote)].flatMap((folder) => (folder === null ? [] : [realOrResolved(folder)]));
  // A checkout that holds the data folder is fine: its untracked .teammem/ is not in its git objects.
  return own.some((folder) => isInsideFolder(folder, candidate)) ? "it is teammem's own data (the team store or the data folder); give the project's code repository" : null;
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
