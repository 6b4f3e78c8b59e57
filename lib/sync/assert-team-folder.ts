import { stat } from "node:fs/promises";
import { AppError } from "../errors";

/**
 * team/ must be a folder (or absent, or a link to one): anything else stops the sync before any
 * change, saying what to do. Returns whether it exists.
 */
export async function assertTeamFolder(teamDir: string): Promise<boolean> {
  const info = await stat(teamDir).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : Promise.reject(error)));
  if (info && !info.isDirectory()) throw new AppError("INVALID_INPUT", `${teamDir} is not a folder: move it aside (team memories live in a folder of that name) and sync again.`);
  return info !== null;
}
