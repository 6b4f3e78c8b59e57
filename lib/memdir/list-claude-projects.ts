import { readdir } from "node:fs/promises";
import path from "node:path";
import { scanMemoryDir } from "./scan-memory-dir";

export type ClaudeProjectMemory = {
  /** The sanitised folder name under `<config home>/projects/` (C1; not reversible). */
  folder: string;
  memoryDir: string;
  privateCount: number;
  teamCount: number;
  skippedCount: number;
};

/** Every project under a Claude Code config home that has a memory directory. */
export async function listClaudeProjects(claudeHome: string): Promise<ClaudeProjectMemory[]> {
  const projectsDir = path.join(claudeHome, "projects");
  let folders;
  try {
    folders = await readdir(projectsDir, { withFileTypes: true });
  } catch {
    return []; // no projects folder yet: Claude Code has not been used with this home
  }
  const results = await Promise.all(
    folders
      .filter((entry) => entry.isDirectory())
      .map(async (entry) => {
        const memoryDir = path.join(projectsDir, entry.name, "memory");
        const scan = await scanMemoryDir(memoryDir, { all: true });
        if (scan.memories.length === 0 && scan.skipped.length === 0) return null;
        const teamCount = scan.memories.filter((memory) => memory.path.startsWith("team/")).length;
        return {
          folder: entry.name,
          memoryDir,
          privateCount: scan.memories.length - teamCount,
          teamCount,
          skippedCount: scan.skipped.length,
        };
      }),
  );
  return results.filter((result): result is ClaudeProjectMemory => result !== null).sort((a, b) => a.folder.localeCompare(b.folder));
}
