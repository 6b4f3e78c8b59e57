import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listRepoMemoryDirs } from "@/lib/memdir/list-repo-memory-dirs";
import { sanitizeProjectPath } from "@/lib/memdir/paths";

describe("listRepoMemoryDirs", () => {
  it("C2, T1, G1: both candidates for a worktree, their team dirs, and checked-in agent memories", async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), "memdir-repo-"));
    const homeDir = path.join(base, "home");
    const main = path.join(base, "main");
    const worktree = path.join(base, "wt");
    await mkdir(path.join(main, ".git/worktrees/wt"), { recursive: true });
    await writeFile(path.join(main, ".git/worktrees/wt/commondir"), "../..\n");
    await mkdir(path.join(worktree, ".claude/agent-memory/plugin-reviewer"), { recursive: true });
    await mkdir(path.join(main, ".claude/agent-memory-local/tester"), { recursive: true });
    await writeFile(path.join(worktree, ".git"), `gitdir: ${path.join(main, ".git/worktrees/wt")}\n`);
    const mainMemory = path.join(homeDir, ".claude/projects", sanitizeProjectPath(main), "memory");
    await mkdir(path.join(mainMemory, "team"), { recursive: true });

    const dirs = await listRepoMemoryDirs({ homeDir, repoPath: worktree });
    const worktreeMemory = path.join(homeDir, ".claude/projects", sanitizeProjectPath(worktree), "memory");
    expect(dirs.map(({ kind, dir, exists }) => [kind, dir, exists])).toEqual([
      ["private", mainMemory, true],
      ["team", path.join(mainMemory, "team"), true],
      ["agent-local", path.join(main, ".claude/agent-memory-local/tester"), true],
      ["private", worktreeMemory, false],
      ["team", path.join(worktreeMemory, "team"), false],
      ["agent-project", path.join(worktree, ".claude/agent-memory/plugin-reviewer"), true],
    ]);
  });

  it("C1: a long repository path finds the folder by its 200-unit prefix, whatever the hash", async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), "memdir-repo-"));
    const repoPath = path.join(base, "r".repeat(220));
    await mkdir(repoPath);
    const folder = `${sanitizeProjectPath(repoPath)}-1a2b3c`;
    await mkdir(path.join(base, "home/.claude/projects", folder, "memory"), { recursive: true });
    const [privateDir] = await listRepoMemoryDirs({ homeDir: path.join(base, "home"), repoPath });
    expect(privateDir).toMatchObject({ kind: "private", dir: path.join(base, "home/.claude/projects", folder, "memory"), exists: true });
  });

  it("C3: honours CLAUDE_CONFIG_DIR when given an env", async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), "memdir-repo-"));
    const [privateDir] = await listRepoMemoryDirs({ homeDir: base, repoPath: "/r", env: { CLAUDE_CONFIG_DIR: "/cfg" } });
    expect(privateDir?.dir).toBe("/cfg/projects/-r/memory");
  });
});
