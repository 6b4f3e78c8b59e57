import { lstat, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { isInsideFolder } from "../memdir/is-inside-folder";

/**
 * team/ must be a folder (or absent, or a link to a folder inside the memory directory):
 * anything else stops the sync before any change, saying what to do. Returns whether it exists.
 */
export async function assertTeamFolder(teamDir: string): Promise<boolean> {
  const info = await lstat(teamDir).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : Promise.reject(error)));
  if (info === null) return false;
  if (info.isSymbolicLink()) {
    await assertLinkStaysInside(teamDir);
    if (!(await stat(teamDir)).isDirectory()) throw notAFolder(teamDir);
    return true;
  }
  if (!info.isDirectory()) throw notAFolder(teamDir);
  return true;
}

/**
 * P3: teammem never writes, reads or removes through a link out of the memory directory; a
 * team/ that is such a link would have had every store file written beside whatever it points to.
 */
async function assertLinkStaysInside(teamDir: string): Promise<void> {
  const memoryDir = path.dirname(teamDir);
  const [target, realMemoryDir] = await Promise.all([realpath(teamDir).catch(() => null), realpath(memoryDir)]);
  if (target !== null && target !== realMemoryDir && isInsideFolder(realMemoryDir, target)) return;
  const where = target === null ? "a link that leads nowhere" : `a link to ${target}, outside the memory directory`;
  throw new AppError("INVALID_INPUT", `${teamDir} is ${where}: teammem does not sync through it. Replace the link with a folder (move the memories you want into it) and sync again; nothing was written.`);
}

function notAFolder(teamDir: string): AppError {
  return new AppError("INVALID_INPUT", `${teamDir} is not a folder: move it aside (team memories live in a folder of that name) and sync again.`);
}
