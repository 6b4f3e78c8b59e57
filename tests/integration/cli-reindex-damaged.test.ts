import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { readRecordedCommit } from "@/lib/read-model/sync-read-model";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";

// `teammem reindex` on a store or clone it cannot read answered "The team store has no commits
// yet: the read model is empty." and exit 0, while the store held 31 commits and the rows stayed.
let root: string;
let config: Config;
let db: Db;
let rows = 0;
let head = "";

beforeAll(async () => {
  ensureCompiledCli();
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-reindex-damaged-"));
  config = loadConfig({ TEAMMEM_DATA_DIR: path.join(root, "data"), TEAMMEM_INITIAL_PASSWORD: "long-enough-password" }, root);
  await runSetup(config);
  db = createDb(config);
  rows = await db.storeMemory.count();
  head = execFileSync("git", ["--git-dir", config.storeRemote, "rev-parse", "main"], { encoding: "utf8" }).trim();
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (root) await rm(root, { recursive: true, force: true });
});

function reindex(): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [TEAMMEM_BIN, "reindex"], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TEAMMEM_DATA_DIR: config.dataDir },
  });
}

async function expectRowsKept(): Promise<void> {
  expect(await db.storeMemory.count()).toBe(rows);
  expect(await readRecordedCommit(db)).toBe(head);
}

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

describe("teammem reindex on a damaged store or clone", () => {
  it("a file where the store clone should be: names the clone, says it is damaged and how to recover, exit 1, rows kept", async () => {
    const aside = `${config.storeCloneDir}.kept`;
    await rename(config.storeCloneDir, aside);
    await writeFile(config.storeCloneDir, "x\n");
    try {
      const run = reindex();
      expect(run.status).toBe(1);
      expect(run.stdout + run.stderr).not.toMatch(/no commits yet/);
      expect(run.stderr).toContain(`The store clone ${config.storeCloneDir} is damaged (it is not a folder)`);
      expect(run.stderr).toMatch(/Move it aside .* npm start, which clones the team store again/);
      await expectRowsKept();
    } finally {
      await rm(config.storeCloneDir);
      await rename(aside, config.storeCloneDir);
    }
  }, 60_000);

  it("no store clone at all: says so and that npm start clones it, exit 1", async () => {
    const aside = `${config.storeCloneDir}.kept`;
    await rename(config.storeCloneDir, aside);
    try {
      const run = reindex();
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`The store clone ${config.storeCloneDir} does not exist`);
      await expectRowsKept();
    } finally {
      await rename(aside, config.storeCloneDir);
    }
  }, 60_000);

  it("a store without main whose history the clone still has: rebuilds from the clone and says why the store could not be fetched", () => {
    git("--git-dir", config.storeRemote, "update-ref", "-d", "refs/heads/main");
    try {
      const run = reindex();
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/rebuilt from the last fetched state, since the store could not be fetched: The team store has no main branch/);
      expect(run.stdout).toContain(`Read model rebuilt at ${head.slice(0, 12)}: ${rows} memories`);
    } finally {
      git("--git-dir", config.storeRemote, "update-ref", "refs/heads/main", head);
    }
  }, 60_000);

  it("a store without main and a clone that lost its record too: nothing rebuilt, exit 1, never 'empty'", async () => {
    git("--git-dir", config.storeRemote, "update-ref", "-d", "refs/heads/main");
    git("-C", config.storeCloneDir, "update-ref", "-d", "refs/remotes/origin/main");
    try {
      const run = reindex();
      expect(run.status).toBe(1);
      expect(run.stdout + run.stderr).not.toMatch(/no commits yet/);
      expect(run.stderr).toContain(`the team store has no commits, although the read model records commit ${head.slice(0, 12)}`);
      await expectRowsKept();
    } finally {
      git("--git-dir", config.storeRemote, "update-ref", "refs/heads/main", head);
      git("-C", config.storeCloneDir, "update-ref", "refs/remotes/origin/main", head);
    }
  }, 60_000);

  it("a healthy store still rebuilds, exit 0", () => {
    const run = reindex();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/could not be fetched/);
    expect(run.stdout).toContain(`Read model rebuilt at ${head.slice(0, 12)}: ${rows} memories`);
  }, 60_000);
});
