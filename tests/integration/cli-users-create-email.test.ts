import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

function teammem(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, ...args], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("teammem users create", () => {
  it("refuses what the API refuses (exit 2, one line) and creates nothing", async () => {
    const env = { TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "" };
    await runSetup(loadConfig(env));

    const badEmail = teammem(["users", "create", "bad-email", "--name", "Bad"], env);
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr.trim()).toBe("teammem: email: give an email address, such as ann@example.com.");
    expect(badEmail.stdout).toBe("");

    const blankName = teammem(["users", "create", "ann@example.com", "--name", "  "], env);
    expect(blankName.code).toBe(2);
    expect(blankName.stderr.trim()).toMatch(/name: give the person's name/);

    expect(teammem(["users", "list"], env).stdout.trim().split("\n").map((line) => line.split(/\s+/)[0])).toEqual(["admin@teammem.local"]);
    const good = teammem(["users", "create", "Ann@Example.com", "--name", "Ann"], env);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^One-time password for ann@example\.com \(shown once\): /);
  });
});
