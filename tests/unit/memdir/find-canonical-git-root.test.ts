import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findCanonicalGitRoot } from "@/lib/memdir/find-canonical-git-root";

/** A main checkout at `main/` and a worktree at `wt/`, laid out as `git worktree add` does. */
async function repoWithWorktree(): Promise<{ base: string; main: string; worktree: string }> {
  const base = await mkdtemp(path.join(os.tmpdir(), "memdir-git-"));
  const main = path.join(base, "main");
  const worktree = path.join(base, "wt");
  await mkdir(path.join(main, ".git/worktrees/wt"), { recursive: true });
  await mkdir(path.join(worktree, "src/deep"), { recursive: true });
  await writeFile(path.join(worktree, ".git"), `gitdir: ${path.join(main, ".git/worktrees/wt")}\n`);
  await writeFile(path.join(main, ".git/worktrees/wt/commondir"), "../..\n");
  return { base, main, worktree };
}

describe("findCanonicalGitRoot", () => {
  it("P4: a normal checkout is its own canonical root, found from a subfolder", async () => {
    const { main } = await repoWithWorktree();
    await mkdir(path.join(main, "sub"), { recursive: true });
    expect(await findCanonicalGitRoot(path.join(main, "sub"))).toEqual({ worktreeRoot: main, canonicalRoot: main });
  });

  it("P4, C2: a worktree resolves through gitdir and commondir to the main checkout", async () => {
    const { main, worktree } = await repoWithWorktree();
    expect(await findCanonicalGitRoot(path.join(worktree, "src/deep"))).toEqual({ worktreeRoot: worktree, canonicalRoot: main });
  });

  it("C2: a worktree of a bare repository resolves to the common dir itself", async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), "memdir-git-"));
    const bare = path.join(base, "project.git");
    await mkdir(path.join(bare, "worktrees/wt"), { recursive: true });
    await mkdir(path.join(base, "wt"));
    await writeFile(path.join(base, "wt/.git"), "gitdir: ../project.git/worktrees/wt\n");
    await writeFile(path.join(bare, "worktrees/wt/commondir"), "../..\n");
    expect(await findCanonicalGitRoot(path.join(base, "wt"))).toEqual({ worktreeRoot: path.join(base, "wt"), canonicalRoot: bare });
  });

  it("C2: a submodule and a checkout with a separate git dir are their own roots, never their git dirs", async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), "memdir-git-"));
    const git = (...args: string[]) => execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "protocol.file.allow=always", ...args], { cwd: base, stdio: "pipe" });
    git("init", "-q", "library");
    git("-C", "library", "commit", "-q", "--allow-empty", "-m", "library");
    git("init", "-q", "super");
    git("-C", "super", "commit", "-q", "--allow-empty", "-m", "super");
    git("-C", "super", "submodule", "add", "-q", "../library", "vendor/library");
    git("init", "-q", "--separate-git-dir", path.join(base, "elsewhere.git"), "checkout");
    const submodule = path.join(base, "super/vendor/library");
    expect(await findCanonicalGitRoot(submodule)).toEqual({ worktreeRoot: submodule, canonicalRoot: submodule });
    const checkout = path.join(base, "checkout");
    expect(await findCanonicalGitRoot(checkout)).toEqual({ worktreeRoot: checkout, canonicalRoot: checkout });
  });

  it("a .git file whose git dir names a commondir but is not one of its worktrees is not followed", async () => {
    const { base, worktree } = await repoWithWorktree();
    const elsewhere = path.join(base, "elsewhere/.git/modules/x");
    await mkdir(elsewhere, { recursive: true });
    await writeFile(path.join(elsewhere, "commondir"), "../..\n");
    await writeFile(path.join(worktree, ".git"), `gitdir: ${elsewhere}\n`);
    expect(await findCanonicalGitRoot(worktree)).toEqual({ worktreeRoot: worktree, canonicalRoot: worktree });
  });

  it("returns null outside any repository", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "memdir-nogit-"));
    expect(await findCanonicalGitRoot(dir)).toBeNull();
  });
});
