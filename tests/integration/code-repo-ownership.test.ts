import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveCodeHead } from "@/lib/code-repo/read-code-repo";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const home = process.env.HOME;
afterEach(() => {
  process.env.HOME = home;
});

// Giving a folder to another user needs root: elsewhere the case cannot be made.
const isRoot = process.getuid?.() === 0;

describe("a code repository another user owns", () => {
  it.skipIf(!isRoot)("is named as such, with the two ways out, not as 'not a git repository'", async () => {
    const repo = path.join(await tempDir(), "checkout");
    execFileSync("git", ["init", "-q", repo]);
    execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "x"]);
    execFileSync("chown", ["-R", "nobody", repo]);
    // A home without this machine's global safe.directory setting, as most machines have.
    process.env.HOME = await tempDir();
    await expect(resolveCodeHead(repo)).rejects.toThrow(`${repo} belongs to another user, and git refuses to read it ("dubious ownership"): run teammem as its owner, or mark it safe with git config --global --add safe.directory ${repo}.`);
  });
});
