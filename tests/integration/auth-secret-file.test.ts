import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";
import { runDoctor, setupError } from "../helpers/setup-outcome";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

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

      const report = runDoctor(env);
      expect(report.code).toBe(1);
      expect(report.stdout).toMatch(/FAIL instance secret: .*auth-secret .*at least 32 characters/);
    }

    await rm(file, { recursive: true, force: true });
    await writeFile(file, original, { mode: 0o600 });
    await runSetup(loadConfig(env));
    expect(runDoctor(env).stdout).toMatch(/ok {3}instance secret: /);
  });
});
