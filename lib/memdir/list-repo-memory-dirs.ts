import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { agentScopeDir } from "./agent-memory-dir";
import { findCanonicalGitRoot } from "./find-canonical-git-root";
import { findProjectFolder } from "./find-project-folder";
import { teamMemoryDir } from "./paths";
import { resolveConfigHome, type Env } from "./resolve-config-home";

export type RepoMemoryDirKind = "private" | "team" | "agent-project" | "agent-local";

export type RepoMemoryDir = {
  kind: RepoMemoryDirKind;
  dir: string;
  /** Which checkout the directory was derived from (C2: worktrees may or may not share). */
  root: string;
  /** For agent memory, the folder name of the agent type (G2). */
  agentType?: string;
  exists: boolean;
};

export type ListRepoMemoryDirsOptions = { homeDir: string; repoPath: string; env?: Env };

/**
 * Every memory directory that belongs to a repository: private and team memory keyed by the
 * canonical git root AND by the worktree root (C2: which one Claude Code uses has changed
 * between versions), plus the project and local agent memories checked into either (G1).
 */
export async function listRepoMemoryDirs(options: ListRepoMemoryDirsOptions): Promise<RepoMemoryDir[]> {
  const configHome = resolveConfigHome(options.env ?? {}, options.homeDir);
  const repoPath = path.resolve(options.repoPath);
  const roots = await findCanonicalGitRoot(repoPath);
  const candidates = [...new Set([roots?.canonicalRoot ?? repoPath, roots?.worktreeRoot ?? repoPath])];
  const found: RepoMemoryDir[] = [];
  for (const root of candidates) {
    const { folder } = await findProjectFolder(configHome, root);
    const memoryDir = path.join(configHome, "projects", folder, "memory");
    found.push({ kind: "private", dir: memoryDir, root, exists: await isDirectory(memoryDir) });
    found.push({ kind: "team", dir: teamMemoryDir(memoryDir), root, exists: await isDirectory(teamMemoryDir(memoryDir)) });
    for (const scope of ["project", "local"] as const) {
      const scopeDir = agentScopeDir({ scope, configHome, projectRoot: root });
      const agents = await readdir(scopeDir, { withFileTypes: true }).catch(() => []);
      for (const agent of agents.filter((entry) => entry.isDirectory())) {
        found.push({ kind: scope === "project" ? "agent-project" : "agent-local", dir: path.join(scopeDir, agent.name), root, agentType: agent.name, exists: true });
      }
    }
  }
  const seen = new Set<string>();
  return found.filter((entry) => !seen.has(entry.dir) && Boolean(seen.add(entry.dir)));
}

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
