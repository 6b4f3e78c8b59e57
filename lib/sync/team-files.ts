import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { lstat, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isInsideFolder } from "../memdir/is-inside-folder";
import { findKeyProblem } from "../memdir/validate-memory-key";
import { UnsafeMemoryPathError } from "../memdir/write-memory-file";
import { besideMemoryDir } from "./find-team-memory-dir";
import { startFreshTeamFolder, type FreshTeamFolder } from "./fresh-team-folder";
import { folderFinder, placeTempFile, writeNewFile, type WriteTeamFile } from "./write-team-file";

/** The file operations a sync makes on a member's disk; with --dry-run none of them happens. */
export type TeamFiles = {
  /**
   * Atomic write (temporary file + rename in the same folder) with mtime = the store commit's
   * time (A1). Returns the written file's size, mtime and inode (null with --dry-run).
   */
  write: WriteTeamFile;
  remove(relativePath: string): Promise<void>;
  /**
   * When team/ does not exist (a member's first sync): a writer that fills a new folder beside
   * the memory directory and then moves it into place as team/ in one rename. Null otherwise,
   * and with --dry-run.
   */
  startFreshFolder(): Promise<FreshTeamFolder | null>;
  /** Saves a text that would otherwise be lost (a rejected proposal's) beside the memory directory; returns where. */
  keepAside(relativePath: string, content: string, note: string): Promise<string>;
};

/**
 * Paths reaching `write` were checked (C12) when the server's answer was read. Folders are
 * created one level at a time and each is checked to stay inside team/ once per sync, not once
 * per file. Each file is written atomically: temporary file, then moved into place never
 * through a symbolic link and never over a file saved since the scan (`placeTempFile`).
 */
export function createTeamFiles(memoryDir: string, teamDir: string, options: { isDryRun: boolean }): TeamFiles {
  const asideDir = besideMemoryDir(memoryDir, "kept");
  const asidePath = (relativePath: string) => path.join(asideDir, `${relativePath}.${new Date().toISOString().replace(/[:.]/g, "-")}.txt`);
  if (options.isDryRun) return { write: async () => null, remove: async () => {}, startFreshFolder: async () => null, keepAside: async (relativePath) => asidePath(relativePath) };
  // Temporary names: one random token per sync and a counter (a random draw per file cost more
  // than the write); `wx` refuses a name that exists anyway.
  const tempToken = randomBytes(6).toString("hex");
  let tempCount = 0;
  const folderOf = folderFinder(teamDir);
  return {
    async write(relativePath, content, changedAt, seenBefore) {
      const folder = await folderOf(path.posix.dirname(relativePath).replace(/^\.$/, ""));
      const finalPath = path.join(folder, path.posix.basename(relativePath));
      const tempPath = path.join(folder, `.${path.posix.basename(relativePath)}.${tempToken}-${tempCount++}.tmp`);
      try {
        const written = writeNewFile(tempPath, content, changedAt);
        placeTempFile(tempPath, finalPath, relativePath, seenBefore);
        return written;
      } catch (error) {
        rmSync(tempPath, { force: true });
        throw error;
      }
    },
    startFreshFolder: async () => ((await lstat(teamDir).then(() => true, () => false)) ? null : startFreshTeamFolder(memoryDir, teamDir, tempToken)),
    async remove(relativePath) {
      // Only below team/, never through a folder that links out of it (the state and the
      // server's answer were checked; this is the last line, since a removal cannot be undone).
      if (findKeyProblem(relativePath) !== null) throw new UnsafeMemoryPathError(relativePath, "not a relative path inside team/");
      const parent = path.posix.dirname(relativePath);
      const [root, folder] = await Promise.all([realpath(teamDir).catch(() => null), realpath(path.join(teamDir, parent)).catch(() => null)]);
      if (root === null || folder === null) return; // nothing there to remove
      if (!isInsideFolder(root, folder)) throw new UnsafeMemoryPathError(relativePath, "a folder on the way is a link out of the memory directory");
      await rm(path.join(folder, path.posix.basename(relativePath)), { force: true });
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

