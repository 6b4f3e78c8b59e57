import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { cloneRepository, commitAll, fetchOrigin, fileHistory, initBareRepository, pushMain } from "@/lib/store/git";
import { readFileHistory } from "@/lib/store/read-file-history";
import { readProjectFiles } from "@/lib/store/read-store";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const ann = { name: "Ann Author", email: "ann@example.test" };
const bob = { name: "Bob Builder", email: "bob@example.test" };

/** A bare store, a working clone to commit in, and the server's clone that reads origin/main. */
async function storeWorld() {
  const root = await tempDir("teammem-history-");
  const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_STORE_REMOTE: path.join(root, "store.git"), TEAMMEM_CLAUDE_HOME: "" }, root);
  await initBareRepository(config.storeRemote);
  const work = path.join(root, "work");
  await cloneRepository(config.storeRemote, work);
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), text);
  };
  const publish = async () => {
    await pushMain(work);
    await mkdir(config.dataDir, { recursive: true });
    await cloneRepository(config.storeRemote, config.storeCloneDir).catch(() => fetchOrigin(config.storeCloneDir));
  };
  return { config, work, write, publish };
}

describe("store file history", () => {
  it("lists the commits that changed one file, newest first, with author, date and subject", async () => {
    const { config, work, write, publish } = await storeWorld();
    await write("projects/p1/a.md", "---\nname: A\n---\nfirst\n");
    await write("projects/p1/b.md", "b\n");
    await commitAll({ dir: work, message: "Add A and B\n\nSource: test", author: ann, date: new Date("2026-01-02T03:04:05Z") });
    await write("projects/p1/a.md", "---\nname: A\n---\nsecond\n");
    await commitAll({ dir: work, message: "Edit A: a subject with | pipes & \"quotes\"", author: bob, date: new Date("2026-02-03T04:05:06Z") });
    await write("projects/p1/b.md", "b2\n");
    await commitAll({ dir: work, message: "Edit B only", author: bob });
    await publish();

    const history = await readFileHistory(config, "p1", "a.md");
    expect(history.map((commit) => commit.subject)).toEqual(['Edit A: a subject with | pipes & "quotes"', "Add A and B"]);
    expect(history[0]).toMatchObject({ authorName: "Bob Builder", authorEmail: "bob@example.test", date: new Date("2026-02-03T04:05:06Z") });
    expect(history[1]!.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await readFileHistory(config, "p1", "never.md")).toEqual([]);

    const files = await readProjectFiles(config, "p1");
    expect(files.map((file) => file.path).sort()).toEqual(["a.md", "b.md"]);
    expect(files.find((file) => file.path === "a.md")).toMatchObject({ text: "---\nname: A\n---\nsecond\n", updatedAt: new Date("2026-02-03T04:05:06Z") });
  });

  it("follows a renamed file back through its old name", async () => {
    const { config, work, write, publish } = await storeWorld();
    await write("projects/p1/old-name.md", "a memory long enough for git to see the rename\n".repeat(5));
    await commitAll({ dir: work, message: "Add old name", author: ann });
    await rename(path.join(work, "projects/p1/old-name.md"), path.join(work, "projects/p1/new-name.md"));
    await commitAll({ dir: work, message: "Rename", author: ann });
    await publish();
    const history = await fileHistory(config.storeCloneDir, "refs/remotes/origin/main", "projects/p1/new-name.md");
    expect(history.map((commit) => commit.subject)).toEqual(["Rename", "Add old name"]);
  });

  it("is empty for a store without commits", async () => {
    const { config } = await storeWorld();
    await mkdir(config.dataDir, { recursive: true });
    await cloneRepository(config.storeRemote, config.storeCloneDir);
    expect(await readFileHistory(config, "p1", "a.md")).toEqual([]);
    expect(await readProjectFiles(config, "p1")).toEqual([]);
  });
});
