import { mkdir, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeMemoryFile } from "../memdir/write-memory-file";
import { besideMemoryDir } from "./find-team-memory-dir";

/** The file operations a sync makes on a member's disk; with --dry-run none of them happens. */
export type TeamFiles = {
  /** Atomic write (temporary file + rename in the same folder), then mtime = the store commit's time (A1). */
  write(relativePath: string, content: string, changedAt: Date): Promise<void>;
  remove(relativePath: string): Promise<void>;
  /** Saves a text that would otherwise be lost (a rejected proposal's) beside the memory directory; returns where. */
  keepAside(relativePath: string, content: string, note: string): Promise<string>;
};

export function createTeamFiles(memoryDir: string, teamDir: string, options: { isDryRun: boolean }): TeamFiles {
  const asideDir = besideMemoryDir(memoryDir, "kept");
  const asidePath = (relativePath: string) => path.join(asideDir, `${relativePath}.${new Date().toISOString().replace(/[:.]/g, "-")}.txt`);
  if (options.isDryRun) return { write: async () => {}, remove: async () => {}, keepAside: async (relativePath) => asidePath(relativePath) };
  return {
    async write(relativePath, content, changedAt) {
      const written = await writeMemoryFile({ memoryDir: teamDir, relativePath, content });
      await utimes(written, changedAt, changedAt);
    },
    async remove(relativePath) {
      await rm(path.join(teamDir, relativePath), { force: true });
    },
    async keepAside(relativePath, content, note) {
      // Not inside the memory directory and not `.md`: Claude Code must not read it as a memory.
      const target = asidePath(relativePath);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, `${note}\n\n${content}`, { mode: 0o600, flag: "wx" });
      return target;
    },
  };
}
