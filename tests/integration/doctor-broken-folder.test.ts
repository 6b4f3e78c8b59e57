import { execFileSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";
import { runDoctor } from "../helpers/setup-outcome";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

describe("teammem doctor on a data folder start-up would refuse", () => {
  it("fails (exit 1) when the store clone is replaced by a file, and leaves the file", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "" };
    await runSetup(loadConfig(env));
    expect(runDoctor(env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/ok {3}store clone: /) });

    const clone = path.join(dataDir, "store-clone");
    await rm(clone, { recursive: true });
    await writeFile(clone, "x\n");
    const report = runDoctor(env);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain(`FAIL store clone: ${clone} is not a folder`);
    expect(await readFile(clone, "utf8")).toBe("x\n");
    await expect(runSetup(loadConfig(env))).rejects.toThrow(); // start-up refuses the same folder
  });

  it("fails (exit 1) when the store lost its main branch, which start-up refuses, and changes nothing", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "on", TEAMMEM_CLAUDE_HOME: "", TEAMMEM_INITIAL_PASSWORD: "doctor-history-password" };
    await runSetup(loadConfig(env));
    expect(runDoctor(env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/ok {3}team store: /) });

    const store = path.join(dataDir, "store.git");
    execFileSync("git", ["-C", store, "update-ref", "-d", "refs/heads/main"]);
    const report = runDoctor(env);
    expect(report.code).toBe(1);
    expect(report.stdout).toMatch(/FAIL team store: .*main/);
    expect(execFileSync("git", ["-C", store, "for-each-ref", "refs/heads"], { encoding: "utf8" })).toBe(""); // doctor only reads
    const refused = await runSetup(loadConfig(env)).then(() => null, (error: unknown) => error as Error);
    expect(refused?.message).toBe(report.stdout.match(/FAIL team store: (.*)/)![1]);
  });
});
