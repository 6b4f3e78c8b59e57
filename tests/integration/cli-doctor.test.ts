import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
// What users run: the compiled CLI (built here when missing or older than its sources).
const cli = TEAMMEM_BIN;
beforeAll(ensureCompiledCli);

function teammem(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("teammem CLI", () => {
  it("--help and --version exit 0", () => {
    const help = teammem(["--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/doctor/);
    expect(teammem(["--version"], {}).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("doctor --json reports every check as ok after setup, without the API key's value", async () => {
    const dataDir = path.join(await tempDir(), "data");
    await runSetup(loadConfig({ TEAMMEM_DATA_DIR: dataDir }));
    const result = teammem(["doctor", "--json"], { TEAMMEM_DATA_DIR: dataDir, ANTHROPIC_API_KEY: "sk-ant-do-not-print-me" });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { ok: boolean; config: { model: { keyPresent: boolean } }; checks: { name: string; status: string }[] };
    expect(report.ok).toBe(true);
    expect(report.config.model.keyPresent).toBe(true);
    expect(report.checks.map((check) => check.status)).not.toContain("fail");
    expect(result.stdout).not.toContain("sk-ant-do-not-print-me");
  });

  it("doctor exits 1 and says to run npm start when nothing is set up yet", async () => {
    const dataDir = path.join(await tempDir(), "never-started");
    const result = teammem(["doctor"], { TEAMMEM_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL data folder: .*run npm start/);
  });

  it("exits 2 with a message on stderr for bad usage or bad configuration", () => {
    const unknown = teammem(["frobnicate"], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);

    const badFlag = teammem(["doctor", "--nope"], {});
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/--nope/);

    const badConfig = teammem(["doctor"], { PORT: "eighty" });
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/PORT must be a whole number/);
    expect(badConfig.stdout).toBe("");
  });
});
