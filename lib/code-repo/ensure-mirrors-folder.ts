import { constants } from "node:fs";
import { access, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { log } from "../log";

// Per folder, the problem last written to the log: every check of every project meets the same
// broken folder, and the operator needs to read it once, not once per page view.
const loggedProblems = new Map<string, string>();

/** `<dataDir>/code-mirrors`, where the mirrors of code repositories are kept. */
export function mirrorsFolder(dataDir: string): string {
  return path.join(dataDir, "code-mirrors");
}

/**
 * Makes `<dataDir>/code-mirrors` if it is missing and checks that the server can write in it.
 * Throws DATA_DIR_UNAVAILABLE naming the folder and what to do: without this a file in its place
 * or a read-only folder surfaced as "the code repository could not be read" (or as git's clone
 * error), blaming a healthy repository. Checked on every sync, never remembered as a failure, so
 * a repaired folder is used on the next check.
 */
export async function ensureMirrorsFolder(dataDir: string): Promise<void> {
  const folder = mirrorsFolder(dataDir);
  const problem = await findFolderProblem(folder);
  if (problem === null) {
    loggedProblems.delete(folder);
    return;
  }
  const message = problem === "not-a-folder"
    ? `${folder} (in the data folder) is not a folder, so no code repository can be copied to this server: move that file away or delete it, and the next check creates the folder. The code repository itself was not tried.`
    : `${folder} (in the data folder) cannot be written by the teammem server (${problem}): give the user the server runs as write access to it, or free space on its disk; the next check tries again. The code repository itself was not tried.`;
  if (loggedProblems.get(folder) !== problem) {
    loggedProblems.set(folder, problem);
    log("error", "code_repo.mirrors_folder_unusable", { folder, problem, message });
  }
  throw new AppError("DATA_DIR_UNAVAILABLE", message, { details: { folder } });
}

async function findFolderProblem(folder: string): Promise<string | null> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    // EEXIST / ENOTDIR: a file where the folder (or the data folder) should be.
    const code = errorCode(error);
    if (code !== "EEXIST" && code !== "ENOTDIR") return describeCode(code);
  }
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) return "not-a-folder";
  try {
    await access(folder, constants.W_OK | constants.X_OK);
    return null;
  } catch (error) {
    return describeCode(errorCode(error));
  }
}

function describeCode(code: string): string {
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "the disk is mounted read-only";
  if (code === "ENOSPC") return "the disk is full";
  return code === "" ? "an unknown error" : `error ${code}`;
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : "";
}
