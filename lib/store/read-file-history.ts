import type { Config } from "../config";
import { fileHistory, resolveRefQuickly, type FileCommit } from "./git";
import { MAIN } from "./read-store";
import { projectDir } from "./store-manifest";

/**
 * Who changed one memory of a project in the team store, and when: the store's git log of that
 * file at main, newest first. Empty for a store without commits or a file never committed.
 * The caller has checked read access to the project and that `memoryPath` is a safe key.
 */
export async function readFileHistory(config: Config, projectId: string, memoryPath: string): Promise<FileCommit[]> {
  if (!(await resolveRefQuickly(config.storeCloneDir, MAIN))) return [];
  return fileHistory(config.storeCloneDir, MAIN, `${projectDir(projectId)}/${memoryPath}`);
}
