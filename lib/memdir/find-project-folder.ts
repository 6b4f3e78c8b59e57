import { readdir } from "node:fs/promises";
import path from "node:path";
import { MAX_SANITIZED_LENGTH, sanitizeProjectPath } from "./paths";

/**
 * C1: the folder under `<config home>/projects/` that belongs to a path. Short names match
 * exactly. A long name is its first 200 units, `-`, and a hash whose algorithm differs between
 * runtimes, so it is found by that prefix. Returns the expected name when no folder exists yet.
 */
export async function findProjectFolder(configHome: string, projectPath: string): Promise<{ folder: string; exists: boolean }> {
  const sanitized = sanitizeProjectPath(projectPath);
  const folders = await readdir(path.join(configHome, "projects")).catch(() => [] as string[]);
  if (folders.includes(sanitized) && projectPath.length <= MAX_SANITIZED_LENGTH) return { folder: sanitized, exists: true };
  if (projectPath.length <= MAX_SANITIZED_LENGTH) return { folder: sanitized, exists: false };
  const match = folders.filter((folder) => folder.startsWith(`${sanitized}-`)).sort()[0];
  return match ? { folder: match, exists: true } : { folder: sanitized, exists: false };
}
