import path from "node:path";
import { findCanonicalGitRoot } from "./find-canonical-git-root";
import { findProjectFolder } from "./find-project-folder";
import { readAutoMemoryDirectory, type SettingsSource } from "./read-auto-memory-directory";
import { resolveConfigHome, type Env } from "./resolve-config-home";

export type ResolveMemoryDirOptions = {
  env: Env;
  homeDir: string;
  /** The directory Claude Code was started in. */
  cwd: string;
  policySettingsFile?: string;
  flagSettings?: Record<string, unknown>;
};

export type MemoryDirSource = "env-override" | `settings-${SettingsSource}` | "default";

export type ResolvedMemoryDir = { memoryDir: string; source: MemoryDirSource; configHome: string };

/**
 * P1, P2: (1) `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`; (2) `autoMemoryDirectory` from settings
 * (never project settings, P3); (3) `<config home>/projects/<canonical git root>/memory/`.
 * Outside a repository the start directory stands in for the git root.
 */
export async function resolveMemoryDir(options: ResolveMemoryDirOptions): Promise<ResolvedMemoryDir> {
  const configHome = resolveConfigHome(options.env, options.homeDir);
  const override = options.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE?.trim();
  if (override && path.isAbsolute(override)) return { memoryDir: path.normalize(override), source: "env-override", configHome };
  const roots = await findCanonicalGitRoot(options.cwd);
  const fromSettings = await readAutoMemoryDirectory({
    homeDir: options.homeDir,
    configHome,
    projectDir: roots?.worktreeRoot ?? options.cwd,
    policySettingsFile: options.policySettingsFile,
    flagSettings: options.flagSettings,
  });
  if (fromSettings) return { memoryDir: fromSettings.dir, source: `settings-${fromSettings.source}`, configHome };
  const { folder } = await findProjectFolder(configHome, roots?.canonicalRoot ?? path.resolve(options.cwd));
  return { memoryDir: path.join(configHome, "projects", folder, "memory"), source: "default", configHome };
}
