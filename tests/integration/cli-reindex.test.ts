import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

describe("teammem reindex", () => {
  it("rebuilds a damaged read model from the store, as installed, and says at which commit", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const config = loadConfig({ TEAMMEM_DATA_DIR: dataDir, TEAMMEM_INITIAL_PASSWORD: "long-enough-password" });
    await runSetup(config);
    const db = createDb(config);
    try {
      // Damage: rows lost and a row for a file that does not exist.
      const before = await db.storeMemory.count();
      await db.storeMemory.deleteMany({ where: { path: { startsWith: "feedback" } } });
      await db.storeMemory.create({ data: { projectId: "acme-checkout", path: "ghost.md", blob: "0".repeat(40), bodyBytes: 1, changedAt: new Date(), changedBy: "nobody", changedCommit: "0".repeat(40) } });

      const run = spawnSync(process.execPath, [TEAMMEM_BIN, "reindex", "--json"], {
        encoding: "utf8",
        env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TEAMMEM_DATA_DIR: dataDir },
      });
      expect(run.status, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { commit: string; memories: number };
      expect(report.commit).toBe(execFileSync("git", ["--git-dir", config.storeRemote, "rev-parse", "main"], { encoding: "utf8" }).trim());
      expect(report.memories).toBe(before);
      expect(await db.storeMemory.count()).toBe(before);
      expect(await db.storeMemory.findFirst({ where: { path: "ghost.md" } })).toBeNull();

      const usage = spawnSync(process.execPath, [TEAMMEM_BIN, "reindex", "extra"], { encoding: "utf8", env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", TEAMMEM_DATA_DIR: dataDir } });
      expect(usage.status).toBe(2);
    } finally {
      await db.$disconnect();
    }
  });
});
