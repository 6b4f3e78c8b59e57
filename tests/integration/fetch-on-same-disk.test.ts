import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchOnSameDisk, fetchStore } from "@/lib/store/fetch-on-same-disk";
import { readFilesAt } from "@/lib/store/git";

/**
 * Two server clones of one bare store on this disk, as two app instances have: what one pushes,
 * the other fetches by borrowing the store's objects and moving origin/main, with no git fetch.
 */
let root: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", ...args], { cwd, encoding: "utf8" }).trim();

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-fetch-same-disk-"));
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function storeWithTwoClones(name: string) {
  const store = path.join(root, `${name}.git`);
  git(root, "init", "-q", "--bare", "--initial-branch=main", store);
  const [first, second] = [path.join(root, `${name}-a`), path.join(root, `${name}-b`)];
  git(root, "clone", "-q", store, first);
  await writeFile(path.join(first, "README.md"), "store\n");
  git(first, "add", "-A");
  git(first, "commit", "-qm", "first");
  git(first, "push", "-q", "origin", "HEAD:main");
  git(root, "clone", "-q", store, second);
  return { store, first, second };
}

describe("fetching from a store on the same disk", () => {
  it("brings another clone's push in without git fetch, and git reads it as its own", async () => {
    const { store, first, second } = await storeWithTwoClones("plain");
    await writeFile(path.join(second, "feedback_ci.md"), "---\nname: CI\n---\nKeep CI green.\n");
    git(second, "add", "-A");
    git(second, "commit", "-qm", "from the other instance");
    git(second, "push", "-q", "origin", "HEAD:main");
    const pushed = git(store, "rev-parse", "main");

    expect(await fetchOnSameDisk(first)).toBe("fetched");
    expect(git(first, "rev-parse", "refs/remotes/origin/main")).toBe(pushed);
    expect((await readFilesAt(first, pushed, ["feedback_ci.md"])).get("feedback_ci.md")?.content).toBe("---\nname: CI\n---\nKeep CI green.\n");
    git(first, "fsck", "--no-dangling"); // every object reachable from its refs is there (borrowed)

    // Again: nothing moved, the store is borrowed once.
    expect(await fetchOnSameDisk(first)).toBe("fetched");
    const alternates = await readFile(path.join(first, ".git", "objects", "info", "alternates"), "utf8");
    expect(alternates.trim().split("\n")).toEqual([path.join(store, "objects")]);
  });

  it("leaves git fetch to do it for a remote elsewhere or an empty store, and still fails loudly when the store is gone", async () => {
    const { store, first } = await storeWithTwoClones("elsewhere");
    const empty = path.join(root, "empty.git");
    git(root, "init", "-q", "--bare", "--initial-branch=main", empty);
    const fresh = path.join(root, "empty-clone");
    git(root, "clone", "-q", empty, fresh);
    expect(await fetchOnSameDisk(fresh)).toBeNull();

    git(first, "remote", "set-url", "origin", "https://example.invalid/store.git");
    const elsewhere = path.join(root, "elsewhere-copy");
    git(root, "clone", "-q", store, elsewhere);
    git(elsewhere, "remote", "set-url", "origin", "https://example.invalid/store.git");
    expect(await fetchOnSameDisk(elsewhere)).toBeNull();

    const orphan = path.join(root, "orphan");
    const gone = path.join(root, "gone.git");
    git(root, "clone", "-q", "--bare", store, gone);
    git(root, "clone", "-q", gone, orphan);
    await rm(gone, { recursive: true, force: true });
    await expect(fetchStore(orphan)).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
  });
});
