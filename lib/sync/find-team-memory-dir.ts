import { stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { findCanonicalGitRoot } from "../memdir/find-canonical-git-root";
import { teamMemoryDir } from "../memdir/paths";
import { resolveMemoryDir, type MemoryDirSource } from "../memdir/resolve-memory-dir";
import type { Env } from "../memdir/resolve-config-home";

export type TeamMemoryDirOptions = { cwd: string; env: Env; homeDir: string };

export type TeamMemoryLocation = {
  memoryDir: string;
  /** T1: `<memoryDir>/team/`, the folder `teammem sync` keeps in step with the store. */
  teamDir: string;
  source: MemoryDirSource;
  /** The checkout's canonical root (P4: worktrees share it), or null outside a repository. */
  checkoutRoot: string | null;
};

/**
 * The team memory folder of the checkout at `cwd`, found exactly as Claude Code finds the memory
 * directory (P1–P4, C1–C3): the override variable, `autoMemoryDirectory` from user or policy
 * settings only, else `<config home>/projects/<canonical git root>/memory/`.
 */
export async function findTeamMemoryDir({ cwd, env, homeDir }: TeamMemoryDirOptions): Promise<TeamMemoryLocation> {
  // A mistyped DIR is said as such, not as "not a git checkout" (the walk up finds none there).
  const info = await stat(cwd).catch(() => null);
  if (!info) throw new AppError("INVALID_INPUT", `${cwd} does not exist: give the folder of your checkout (or run in it).`);
  if (!info.isDirectory()) throw new AppError("INVALID_INPUT", `${cwd} is not a folder: give the folder of your checkout (or run in it).`);
  const [resolved, roots] = await Promise.all([resolveMemoryDir({ env, homeDir, cwd }), findCanonicalGitRoot(cwd)]);
  return { memoryDir: resolved.memoryDir, teamDir: teamMemoryDir(resolved.memoryDir), source: resolved.source, checkoutRoot: roots?.canonicalRoot ?? null };
}

/** Files teammem keeps for a memory directory sit beside it (never inside it, where they could pass for memories). */
export function besideMemoryDir(memoryDir: string, suffix: string): string {
  return path.join(path.dirname(memoryDir), `${path.basename(memoryDir)}.teammem-${suffix}`);
}
