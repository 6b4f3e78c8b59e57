import { execFileSync, spawnSync } from "node:child_process";
import { chmod, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";
import { setupError } from "../helpers/setup-outcome";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);
const immutable: string[] = [];
afterEach(() => immutable.splice(0).forEach((file) => execFileSync("chattr", ["-i", file])));

// Root ignores file modes, so the test makes the database unwritable the way root cannot override.
function makeImmutable(file: string): boolean {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) return false;
  execFileSync("chattr", ["+i", file]);
  immutable.push(file);
  return true;
}

describe("a healthy database file that cannot be written", () => {
  it("is reported as not writable, never as possibly corrupt to move aside, and is left byte for byte", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "" };
    await runSetup(loadConfig(env));
    const file = path.join(dataDir, "teammem.db");
    const before = await readFile(file);
    if (!makeImmutable(file)) await chmod(file, 0o444);

    const error = await setupError(env);
    expect(error.message).toMatch(new RegExp(`^The database path ${file} cannot be written by this user \\(.+\\); fix that, or set DATABASE_URL`));
    expect(error.message).not.toMatch(/corrupt|move it aside/i);
    expect((await readFile(file)).equals(before)).toBe(true);

    const doctor = spawnSync(process.execPath, [TEAMMEM_BIN, "doctor"], {
      encoding: "utf8",
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain(`FAIL database: The database path ${file} cannot be written`);
  });

  it("names the missing folder of DATABASE_URL instead of calling the database corrupt", async () => {
    const root = await tempDir();
    const missing = path.join(root, "nonexistent", "dir");
    const error = await setupError({ TEAMMEM_DATA_DIR: path.join(root, "data"), DATABASE_URL: `file:${missing}/x.db`, TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "" });
    expect(error.message).toBe(`The folder ${missing} for the database file does not exist: create it, or set DATABASE_URL (or TEAMMEM_DATA_DIR) to a file in an existing folder.`);
  });
});
