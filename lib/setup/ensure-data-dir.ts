import { randomUUID } from "node:crypto";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError, isAppError } from "../errors";

/**
 * Creates the data folder if missing and proves it is writable by writing and removing a probe
 * file. Returns whether it had to be created. Never touches anything else in it.
 */
export async function ensureDataDir(dataDir: string): Promise<{ created: boolean }> {
  const existed = await isDirectory(dataDir);
  if (!existed) {
    try {
      await createWithParents(dataDir);
    } catch (cause) {
      throw unusable(dataDir, "could not be created", cause);
    }
  }
  const probe = path.join(dataDir, `.write-probe-${randomUUID()}`);
  try {
    await writeFile(probe, "");
    await rm(probe);
  } catch (cause) {
    throw unusable(dataDir, "is not writable", cause);
  }
  return { created: !existed };
}

/**
 * `mkdir -p` one folder at a time. Node's own recursive mkdir never returns under a file system
 * that refuses new entries with ENOENT although the parent exists (`/proc/teammem` spun one core
 * forever); here such a refusal is an error like any other.
 */
async function createWithParents(folder: string): Promise<void> {
  try {
    await mkdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    const parent = path.dirname(folder);
    if (code !== "ENOENT" || parent === folder || (await isDirectory(parent))) throw error;
    await createWithParents(parent);
    await mkdir(folder);
  }
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    const info = await stat(target);
    if (!info.isDirectory()) throw unusable(target, "exists but is not a folder");
    return true;
  } catch (error) {
    if (isAppError(error)) throw error;
    return false;
  }
}

function unusable(dataDir: string, problem: string, cause?: unknown): AppError {
  return new AppError(
    "DATA_DIR_UNAVAILABLE",
    `The data folder ${dataDir} ${problem}; set TEAMMEM_DATA_DIR to a folder teammem can write.`,
    { cause, details: { variable: "TEAMMEM_DATA_DIR" } },
  );
}
