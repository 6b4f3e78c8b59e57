import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRefQuickly } from "@/lib/store/git";
import { useTempDirs } from "../../helpers/temp-dir";

const tempDir = useTempDirs();

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", ...args], { cwd, encoding: "utf8" }).trim();
}

describe("resolveRefQuickly: the clone's main without a git process on every read", () => {
  it("reads a fresh clone's packed remote-tracking ref, then the loose one a fetch writes", async () => {
    const root = await tempDir();
    const origin = path.join(root, "origin");
    git(root, "init", "-q", "--initial-branch=main", origin);
    git(origin, "commit", "-q", "--allow-empty", "-m", "first");
    git(root, "clone", "-q", origin, "clone");
    const clone = path.join(root, "clone");
    // git clone keeps remote-tracking refs in packed-refs, not as files.
    expect(await readFile(path.join(clone, ".git", "packed-refs"), "utf8")).toContain("refs/remotes/origin/main");
    expect(await resolveRefQuickly(clone, "refs/remotes/origin/main")).toBe(git(clone, "rev-parse", "refs/remotes/origin/main"));

    git(origin, "commit", "-q", "--allow-empty", "-m", "second");
    git(clone, "fetch", "-q", "origin");
    expect(await resolveRefQuickly(clone, "refs/remotes/origin/main")).toBe(git(origin, "rev-parse", "main"));
    expect(await resolveRefQuickly(clone, "refs/remotes/origin/absent")).toBeNull();
  });
});
