import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyLooseObjects, objectDatabaseOf, writeObject } from "@/lib/store/git-objects";
import { createCommit, writeBlob, writeTreeWithChanges } from "@/lib/store/git";
import { TreeObject, type TreeObjectEntry } from "@/lib/store/tree-object";
import { swapRefFile } from "@/lib/store/git-refs";
import { GitBatchReader } from "@/lib/git-process/git-batch-reader";
import { writeFile } from "node:fs/promises";

// Objects written from this process must be exactly what git writes: the same ids, and a
// repository that `git fsck --strict` accepts.
let root: string;
function git(dir: string, args: string[], input?: string): string;
function git(dir: string, args: string[], input: string | undefined, encoding: "buffer"): Buffer;
function git(dir: string, args: string[], input?: string, encoding?: "buffer"): string | Buffer {
  if (encoding === "buffer") return execFileSync("git", args, { cwd: dir, input });
  return execFileSync("git", args, { cwd: dir, input, encoding: "utf8" }).trim();
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-git-objects-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the in-process object writer", () => {
  it("writes blobs, trees and commits with git's ids, readable by git and passing fsck --strict", async () => {
    const repo = path.join(root, "sha1");
    git(root, ["init", "-q", "--initial-branch=main", repo]);
    const texts = ["", "plain\n", "ünïcödé — and a line without end", "x".repeat(200_000)];
    for (const text of texts) {
      const ours = await writeBlob(repo, text);
      expect(ours).toBe(git(repo, ["hash-object", "--stdin"], text));
      expect(git(repo, ["cat-file", "-p", ours])).toBe(text.trimEnd());
    }
    // Names that sort differently as folders ("a-b" < "a/" but "a" < "a-b" as files) and a nested change.
    const tree = await writeTreeWithChanges(repo, null, [
      { path: "a-b.md", content: "one\n" },
      { path: "a/inner.md", content: "two\n" },
      { path: "a.md", content: "three\n" },
      { path: "projects/p/MEMORY.md", content: "- [x](x.md)\n" },
    ]);
    expect(tree).not.toBeNull();
    const listing = git(repo, ["ls-tree", "-r", "-z", tree!]).split("\0").filter(Boolean).join("\n");
    expect(git(repo, ["mktree", "-z"], git(repo, ["ls-tree", "-z", tree!]))).toBe(tree);
    expect(listing).toContain("a/inner.md");
    const commit = await createCommit({ dir: repo, tree: tree!, parent: null, message: "Add memories\n\nSource: test\n", author: { name: "Ann", email: "ann@example.test" }, committer: { name: "Lena", email: "lena@example.test" }, at: new Date("2026-01-02T03:04:05Z") });
    git(repo, ["update-ref", "refs/heads/main", commit]);
    expect(git(repo, ["log", "-1", "--format=%an %ae %at %s", "main"])).toBe("Ann ann@example.test 1767323045 Add memories");
    expect(() => git(repo, ["fsck", "--strict", "--no-dangling"])).not.toThrow();
  });

  it("uses SHA-256 in a repository created with that object format", async () => {
    const repo = path.join(root, "sha256");
    git(root, ["init", "-q", "--object-format=sha256", repo]);
    const id = await writeBlob(repo, "a memory\n");
    expect(id).toHaveLength(64);
    expect(id).toBe(git(repo, ["hash-object", "--stdin"], "a memory\n"));
  });

  it("reads a tree from its object as ls-tree lists it, for SHA-1 and SHA-256", async () => {
    for (const format of ["sha1", "sha256"]) {
      const repo = path.join(root, `read-tree-${format}`);
      git(root, ["init", "-q", `--object-format=${format}`, repo]);
      const tree = await writeTreeWithChanges(repo, null, [
        { path: "feedback_ci.md", content: "one\n" },
        { path: "name with spaces and ünïcödé.md", content: "two\n" },
        { path: "nested/inner.md", content: "three\n" },
      ]);
      const body = Buffer.from(git(repo, ["cat-file", "tree", tree!], undefined, "buffer"));
      const listed = git(repo, ["ls-tree", "-z", tree!]).split("\0").filter(Boolean).map((line) => {
        const [meta, name] = line.split("\t");
        const [mode, type, id] = meta!.split(" ");
        return { mode, type, id, name };
      });
      expect(TreeObject.parse(body, format === "sha256" ? 32 : 20).entries()).toEqual(listed);
    }
    expect(() => TreeObject.parse(Buffer.from("100644 cut"), 20)).toThrow(/damaged/);
  });

  it("changes a large tree entry by entry with the bytes and ids git mktree gives", async () => {
    const repo = path.join(root, "splice");
    git(root, ["init", "-q", repo]);
    const id = (seed: number) => git(repo, ["hash-object", "-w", "--stdin"], `object ${seed}\n`);
    // Names whose order differs as files and as folders ("a-b" < "a/" but "a" < "a-b"), non-ASCII, spaces.
    const names = ["a", "a-b", "a.b", "a0", "b c", "ünï.md", "z", ...Array.from({ length: 200 }, (_, index) => `memory_${index}.md`)];
    const entryOf = (name: string, seed: number, isFolder = false): TreeObjectEntry =>
      isFolder ? { mode: "040000", type: "tree", id: git(repo, ["mktree"], `100644 blob ${id(seed)}\tinner.md\n`), name } : { mode: "100644", type: "blob", id: id(seed), name };
    const expected = new Map(names.map((name, index) => [name, entryOf(name, index)]));
    let tree = TreeObject.fromEntries([...expected.values()], 20);
    const steps: [string, TreeObjectEntry | null][] = [
      ["memory_150.md", entryOf("memory_150.md", 1_000)], // edited in place
      ["memory_7.md", null], // retired
      ["new_memory.md", entryOf("new_memory.md", 1_001)], // added in the middle
      ["0first.md", entryOf("0first.md", 1_002)], // added first
      ["zz last.md", entryOf("zz last.md", 1_003)], // added last
      ["a", entryOf("a", 1_004, true)], // a file becomes a folder and moves past "a-b" and "a.b"
      ["a-b", entryOf("a-b", 1_005, true)],
      ["a", entryOf("a", 1_006)], // and back
      ["not-there.md", null],
    ];
    for (const [name, entry] of steps) {
      tree = tree.with(name, entry);
      if (entry) expected.set(name, entry);
      else expected.delete(name);
      const listing = [...expected.values()].map((each) => `${each.mode} ${each.type} ${each.id}\t${each.name}\0`).join("");
      const database = (await objectDatabaseOf(repo))!;
      expect(await writeObject(database, "tree", tree.body)).toBe(git(repo, ["mktree", "-z"], listing));
      expect(tree.size).toBe(expected.size);
      expect(tree.find(name)).toEqual(entry);
    }
    expect(() => git(repo, ["fsck", "--strict", "--no-dangling"])).not.toThrow();
  });

  it("copies what it wrote to another repository, and says so when an object is not loose", async () => {
    const from = path.join(root, "copy-from");
    const to = path.join(root, "copy-to.git");
    git(root, ["init", "-q", from]);
    git(root, ["init", "-q", "--bare", to]);
    const [source, target] = [(await objectDatabaseOf(from))!, (await objectDatabaseOf(to))!];
    const blob = await writeObject(source, "blob", Buffer.from("copied\n"));
    const tree = await writeObject(source, "tree", TreeObject.fromEntries([{ mode: "100644", type: "blob", id: blob, name: "copied.md" }], 20).body);
    expect(await copyLooseObjects(source, target, [blob, tree])).toBe(true);
    expect(git(to, ["cat-file", "-p", blob])).toBe("copied");
    // The store keeps its objects when the clone's go (a gc, a new clone): linked, not shared by name.
    await rm(path.join(from, ".git", "objects"), { recursive: true, force: true });
    expect(git(to, ["cat-file", "-p", blob])).toBe("copied");
    expect(git(to, ["ls-tree", tree])).toContain("copied.md");
    expect(await copyLooseObjects(source, target, [blob])).toBe(true); // already there: nothing to do
    expect(await copyLooseObjects(source, target, ["0".repeat(40)])).toBe(false);
  });

  it("refuses a tree entry whose name would change the tree's shape", () => {
    for (const name of ["", "a/b", "nul\0name", ".."]) {
      expect(() => TreeObject.fromEntries([{ mode: "100644", type: "blob", id: "0".repeat(40), name }], 20)).toThrow(/slash or NUL/);
      expect(() => TreeObject.empty(20).with(name, { mode: "100644", type: "blob", id: "0".repeat(40), name })).toThrow(/slash or NUL/);
    }
  });
});

describe("the in-process ref compare-and-swap", () => {
  it("moves a ref only from the expected value, respects git's lock, and reads packed refs", async () => {
    const repo = path.join(root, "refs.git");
    git(root, ["init", "-q", "--bare", "--initial-branch=main", repo]);
    const tree = await writeTreeWithChanges(repo, null, [{ path: "a.md", content: "a\n" }]);
    const commit = (parent: string | null, at: string) => createCommit({ dir: repo, tree: tree!, parent, message: `${at}\n`, author: { name: "A", email: "a@example.test" }, committer: { name: "A", email: "a@example.test" }, at: new Date(at) });
    const first = await commit(null, "2026-01-01T00:00:00Z");
    const second = await commit(first, "2026-01-02T00:00:00Z");

    expect(await swapRefFile(repo, "refs/heads/main", first, second)).toBe("moved"); // it does not exist yet
    expect(await swapRefFile(repo, "refs/heads/main", first, null)).toBe("updated");
    expect(git(repo, ["rev-parse", "main"])).toBe(first);
    expect(await swapRefFile(repo, "refs/heads/main", second, null)).toBe("moved");

    git(repo, ["pack-refs", "--all"]); // now only in packed-refs
    expect(await swapRefFile(repo, "refs/heads/main", second, "0".repeat(40))).toBe("moved");
    await writeFile(path.join(repo, "refs", "heads", "main.lock"), "");
    expect(await swapRefFile(repo, "refs/heads/main", second, first)).toBe("moved"); // someone holds the lock
    await rm(path.join(repo, "refs", "heads", "main.lock"));
    expect(await swapRefFile(repo, "refs/heads/main", second, first)).toBe("updated");
    expect(git(repo, ["rev-parse", "main"])).toBe(second);
    expect(() => git(repo, ["fsck", "--strict", "--no-dangling"])).not.toThrow();
  });
});

describe("the long-running cat-file reader", () => {
  it("answers in order with exact bytes, null for what is missing, and starts again after its process stops", async () => {
    const repo = path.join(root, "reader");
    git(root, ["init", "-q", repo]);
    const bytes = Buffer.from([0xff, 0x0a, 0x00, 0xc3, 0x28, 0x0a]); // not UTF-8, with line breaks and a NUL
    const database = (await objectDatabaseOf(repo))!;
    const binary = await writeObject(database, "blob", bytes);
    const text = await writeBlob(repo, "second\n");
    const reader = new GitBatchReader(repo, { config: [], allowedEnv: [] });
    const [first, missing, second] = await reader.read([binary, "0".repeat(40), text]);
    expect(first?.content.equals(bytes)).toBe(true);
    expect(missing).toBeNull();
    expect(second?.content.toString()).toBe("second\n");
    reader.stop();
    expect((await reader.read([text]))[0]?.type).toBe("blob");
    // An object written after the reader started is found too.
    const later = await writeBlob(repo, "written later\n");
    expect((await reader.read([later]))[0]?.content.toString()).toBe("written later\n");
    reader.stop();
  });
});

describe("the diff between two commits, read from their trees", () => {
  it("lists what `git diff-tree -r` lists: adds, edits, deletions, mode changes, a file that became a folder and back", async () => {
    const { changedPaths } = await import("@/lib/store/git");
    const repo = path.join(root, "diff");
    git(root, ["init", "-q", "--initial-branch=main", repo]);
    const commitAll = (message: string) => {
      git(repo, ["add", "-A"]);
      git(repo, ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", message]);
      return git(repo, ["rev-parse", "HEAD"]);
    };
    const put = (file: string, text: string) => execFileSync("sh", ["-c", `mkdir -p "$(dirname "$1")" && printf '%s' "$2" > "$1"`, "sh", path.join(repo, file), text]);
    const remove = (file: string) => execFileSync("rm", ["-rf", path.join(repo, file)]);
    for (let index = 0; index < 300; index++) put(`projects/big/memory_${String(index).padStart(3, "0")}.md`, `memory ${index}\n`);
    put("projects/small/a.md", "a\n");
    put("projects/small/nested/deep/b.md", "b\n");
    put("projects/small/becomes-folder", "a file first\n");
    put("teammem.json", "{}\n");
    const commits = [commitAll("start")];

    put("projects/big/memory_150.md", "edited\n");
    remove("projects/big/memory_007.md");
    put("projects/big/memory_299a.md", "new beside the last\n");
    put("projects/small/ünï cödé.md", "a name git would quote\n");
    remove("projects/small/becomes-folder");
    put("projects/small/becomes-folder/inside.md", "now a folder\n");
    execFileSync("chmod", ["+x", path.join(repo, "projects/small/a.md")]);
    commits.push(commitAll("many kinds of change"));

    remove("projects/small/nested");
    remove("projects/small/becomes-folder");
    put("projects/small/becomes-folder", "a file again\n");
    put("projects/new/first.md", "a new project\n");
    commits.push(commitAll("folders go and come"));
    commits.push(commitAll("nothing"));

    const fromGit = (from: string, to: string) => {
      const tokens = git(repo, ["-c", "core.quotepath=off", "diff-tree", "-r", "-z", "--no-renames", "--raw", "--no-abbrev", from, to], undefined, "buffer").toString("utf8").split("\0");
      const changes = [];
      for (let index = 0; index + 1 < tokens.length; index += 2) {
        const fields = tokens[index]!.split(" ");
        const isDeleted = fields[4]!.startsWith("D");
        changes.push({ path: tokens[index + 1]!, isDeleted, blob: isDeleted ? null : fields[3]! });
      }
      return changes;
    };
    for (const [from, to] of [[0, 1], [1, 2], [0, 2], [2, 0], [2, 3], [1, 0]] as const) {
      const expected = fromGit(commits[from]!, commits[to]!);
      expect(await changedPaths(repo, commits[from]!, commits[to]!, "")).toEqual(expected);
      expect(await changedPaths(repo, commits[from]!, commits[to]!, "projects/small/")).toEqual(expected.filter((change) => change.path.startsWith("projects/small/")));
    }
    expect((await changedPaths(repo, commits[0]!, commits[1]!, "")).length).toBeGreaterThan(5);
    await expect(changedPaths(repo, commits[0]!, "f".repeat(40), "")).rejects.toThrow();
  });
});
