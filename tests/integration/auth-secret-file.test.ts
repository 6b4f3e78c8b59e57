import { spawnSync } from "node:child_process";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

async function setupError(env: Record<string, string>): Promise<AppError> {
  const error = await runSetup(loadConfig(env)).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected setup to stop with an AppError, got ${String(error)}`);
}

function doctor(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, "doctor"], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  return { code: result.status, stdout: result.stdout };
}

describe("an auth-secret file that cannot be used", () => {
  it("stops start-up naming the file and the 32-character rule, leaves it as it is, and fails teammem doctor", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "" };
    await runSetup(loadConfig(env));
    const file = path.join(dataDir, "auth-secret");
    const original = await readFile(file, "utf8");

    for (const [damage, problem] of [
      [() => writeFile(file, ""), /is empty/],
      [() => writeFile(file, "too-short-a-secret\n"), /holds 18 characters, fewer than 32/],
      [async () => mkdir(file), /is a folder/],
    ] as const) {
      await rm(file, { recursive: true, force: true });
      await damage();
      const before = await stat(file);
      const error = await setupError(env);
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.message).toContain(file);
      expect(error.message).toMatch(problem);
      expect(error.message).toMatch(/at least 32 characters.*TEAMMEM_AUTH_SECRET/);
      expect((await stat(file)).mtimeMs).toBe(before.mtimeMs); // not replaced

      const report = doctor(env);
      expect(report.code).toBe(1);
      expect(report.stdout).toMatch(/FAIL instance secret: .*auth-secret .*at least 32 characters/);
    }

    await rm(file, { recursive: true, force: true });
    await writeFile(file, original, { mode: 0o600 });
    await runSetup(loadConfig(env));
    expect(doctor(env).stdout).toMatch(/ok {3}instance secret: /);
  });
});
