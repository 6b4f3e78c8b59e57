import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { isInsideFolder } from "./is-inside-folder";
import { describeFileKind } from "./read-regular-file";
import { findKeyProblem } from "./validate-memory-key";

export type WriteMemoryFileOptions = {
  memoryDir: string;
  /** Relative to the memory directory, with `/` (C12 rules apply). */
  relativePath: string;
  content: string;
};

export class UnsafeMemoryPathError extends Error {
  constructor(relativePath: string, reason: string) {
    super(`Refusing to write "${relativePath}": ${reason}.`);
    this.name = "UnsafeMemoryPathError";
  }
}

/**
 * Writes a file inside a memory directory atomically: a temporary file in the same folder, then
 * a rename, so a reader never sees half a memory. Never writes through a symlink that leads out
 * of the memory directory (C12, P3: memory writes must not become writes to ~/.ssh). A file
 * that is replaced keeps its permissions: a private MEMORY.md made 0600 stays unreadable to others.
 */
export async function writeMemoryFile(options: WriteMemoryFileOptions): Promise<string> {
  const problem = findKeyProblem(options.relativePath);
  if (problem) throw new UnsafeMemoryPathError(options.relativePath, problem);
  await mkdir(options.memoryDir, { recursive: true }); // P5: mkdir -p semantics
  const rootReal = await realpath(options.memoryDir);
  const segments = options.relativePath.split("/");
  const folderReal = await ensureFolderInside(rootReal, segments.slice(0, -1), options.relativePath);
  const finalPath = await resolveExistingLink(rootReal, path.join(folderReal, segments.at(-1) ?? ""), options.relativePath);
  const tempPath = path.join(path.dirname(finalPath), `.${path.basename(finalPath)}.${randomBytes(6).toString("hex")}.tmp`);
  const replaced = await stat(finalPath).catch(() => null);
  try {
    await writeFile(tempPath, options.content, { flag: "wx" });
    // Set after creation: a mode given to writeFile would pass through the umask.
    if (replaced?.isFile()) await chmod(tempPath, replaced.mode & 0o7777);
    await rename(tempPath, finalPath);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
  return finalPath;
}

/** Creates missing folders one at a time, so `mkdir -p` never creates anything through a link out. */
async function ensureFolderInside(rootReal: string, folders: string[], relativePath: string): Promise<string> {
  let current = rootReal;
  for (const folder of folders) {
    const next = path.join(current, folder);
    await mkdir(next).catch((error: unknown) => {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
    });
    current = await realpath(next);
    if (!isInsideFolder(rootReal, current)) throw new UnsafeMemoryPathError(relativePath, "a folder on the way is a link out of the memory directory");
  }
  return current;
}

/**
 * An existing symlink is written through only when its real target stays inside. A named pipe,
 * socket or device under the name is someone's on purpose: it is refused, not replaced.
 */
async function resolveExistingLink(rootReal: string, filePath: string, relativePath: string): Promise<string> {
  const info = await lstat(filePath).catch(() => null);
  if (info && !info.isFile() && !info.isSymbolicLink() && !info.isDirectory()) throw new UnsafeMemoryPathError(relativePath, `it is ${describeFileKind(info)}, not a regular file`);
  if (!info?.isSymbolicLink()) return filePath;
  const targetReal = await realpath(filePath).catch(() => null);
  if (!targetReal || !isInsideFolder(rootReal, targetReal)) {
    throw new UnsafeMemoryPathError(relativePath, "it is a symbolic link that leads out of the memory directory");
  }
  return targetReal;
}
