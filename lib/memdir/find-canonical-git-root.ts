import { readFile, stat } from "node:fs/promises";
import path from "node:path";

export type GitRoots = {
  /** The working tree that contains the start directory (a worktree, or the main checkout). */
  worktreeRoot: string;
  /** C2, P4: the main checkout of the repository (for a bare repository, its git dir). */
  canonicalRoot: string;
};

/**
 * P4, C2 without running git: walk up to the nearest `.git`; a `.git` FILE marks a worktree
 * (`gitdir: …`), whose git dir holds `commondir` pointing at the shared `.git`. The main
 * checkout is that directory's parent; for a bare repository it is the common dir itself.
 * A `.git` file whose git dir is not a linked worktree's (no `commondir`, or not under the
 * common dir's `worktrees/`: a submodule, `git init --separate-git-dir`) leaves the checkout its
 * own root, as Claude Code does: a git dir is never a memory folder's key.
 * Returns null outside a repository.
 */
export async function findCanonicalGitRoot(startDir: string): Promise<GitRoots | null> {
  const worktreeRoot = await findGitEntry(path.resolve(startDir));
  if (!worktreeRoot) return null;
  const dotGit = path.join(worktreeRoot, ".git");
  if ((await stat(dotGit)).isDirectory()) return { worktreeRoot, canonicalRoot: worktreeRoot };
  const gitDir = await readPointer(dotGit, /^gitdir:\s*(.+)$/m, worktreeRoot);
  if (!gitDir) return { worktreeRoot, canonicalRoot: worktreeRoot };
  const commonDir = await readPointer(path.join(gitDir, "commondir"), /^(.+)$/m, gitDir);
  if (!commonDir || path.dirname(gitDir) !== path.join(commonDir, "worktrees")) return { worktreeRoot, canonicalRoot: worktreeRoot };
  const canonicalRoot = path.basename(commonDir) === ".git" ? path.dirname(commonDir) : commonDir;
  return { worktreeRoot, canonicalRoot };
}

async function findGitEntry(dir: string): Promise<string | null> {
  for (let current = dir; ; current = path.dirname(current)) {
    const found = await stat(path.join(current, ".git")).then(
      () => true,
      () => false,
    );
    if (found) return current;
    if (path.dirname(current) === current) return null;
  }
}

/** Reads a one-line pointer file and resolves the path it names relative to `base`. */
async function readPointer(file: string, pattern: RegExp, base: string): Promise<string | null> {
  const text = await readFile(file, "utf8").catch(() => null);
  const target = text ? pattern.exec(text)?.[1]?.trim() : undefined;
  return target ? path.resolve(base, target) : null;
}
