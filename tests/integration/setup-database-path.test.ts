import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { runSetup } from "@/lib/setup/run-setup";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
const root = path.resolve(import.meta.dirname, "../..");

function startSetupOnly(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts"), "--setup-only"], {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TEAMMEM_DEMO: "off", ...env },
  });
  return { code: result.status, stderr: result.stderr.trim() };
}

describe("DATABASE_URL naming something that is not a database file", () => {
  it("refuses file: with nothing after it, naming DATABASE_URL", () => {
    const error = (() => {
      try {
        loadConfig({ DATABASE_URL: "file:" }, "/srv");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/DATABASE_URL must name the SQLite file after file:/);
  });

  it("stops start-up with one sentence, not a stack, when it names a folder", async () => {
    const folder = await tempDir();
    const dataDir = path.join(await tempDir(), "data");
    const error = await runSetup(loadConfig({ TEAMMEM_DATA_DIR: dataDir, DATABASE_URL: `file:${folder}`, TEAMMEM_DEMO: "off" })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe(`The database path ${folder} is a folder, not a database file; set DATABASE_URL to a file in it, such as file:${folder}/teammem.db. teammem left it untouched.`);

    const started = startSetupOnly({ TEAMMEM_DATA_DIR: dataDir, DATABASE_URL: `file:${folder}` });
    expect(started.code).toBe(1);
    expect(started.stderr).toBe(`teammem: ${(error as AppError).message}`);
  });
});
