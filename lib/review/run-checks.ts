import type { Config } from "../config";
import { readProjectFiles } from "../store/read-store";
import { computeChecks, type ComputedChecks } from "./compute-checks";
import type { TeamMemoryText } from "./find-duplicates";

export type RunChecksOptions = {
  projectId: string;
  path: string;
  content: string | null;
  baseContent: string | null;
  isTeamConventionConfirmed: boolean;
  now?: Date;
};

/** The checks against the project's team memories at the store's main branch as the server has it. */
export async function runChecks(config: Config, options: RunChecksOptions): Promise<ComputedChecks> {
  const teamMemories = options.content === null ? [] : await loadTeamMemories(config, options.projectId, options.path);
  return computeChecks({ ...options, teamMemories, now: options.now ?? new Date() });
}

async function loadTeamMemories(config: Config, projectId: string, exceptPath: string): Promise<TeamMemoryText[]> {
  const files = await readProjectFiles(config, projectId);
  // C5: every *.md except indexes; the file being edited is not its own duplicate.
  return files
    .filter((file) => file.path.endsWith(".md") && !/(^|\/)MEMORY\.md$/.test(file.path) && file.path !== exceptPath)
    .map((file) => ({ path: file.path, text: file.text }));
}
