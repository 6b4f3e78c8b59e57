import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getProposal } from "@/lib/review/get-proposal";
import { runSetup } from "@/lib/setup/run-setup";
import { ensureCompiledCli } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";
import { runDoctor, setupError } from "../helpers/setup-outcome";

const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

const OTHER_SECRET = "another-instance-secret-of-at-least-32-characters";

async function forgetSecretCheck(env: Record<string, string>): Promise<void> {
  const db = createDb(loadConfig(env));
  try {
    await db.systemState.deleteMany({ where: { key: "auth.secretCheck" } });
  } finally {
    await db.$disconnect();
  }
}

describe("the instance secret a database's content was sealed with", () => {
  it("is required at start: a deleted, replaced or different secret stops setup and nothing is generated over it", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" };
    await runSetup(loadConfig(env)); // the demo holds a proposal blocked by a secret: sealed
    const file = path.join(dataDir, "auth-secret");
    const original = await readFile(file, "utf8");

    await rm(file);
    const deleted = await setupError(env);
    expect(deleted.code).toBe("CONFIG_INVALID");
    expect(deleted.message).toContain(`${file} is missing, but this database holds content sealed`);
    expect(deleted.message).toMatch(/restore auth-secret from a backup of the data folder, or set TEAMMEM_AUTH_SECRET/);
    expect(existsSync(file)).toBe(false);
    const report = runDoctor(env);
    expect(report.code).toBe(1);
    expect(report.stdout).toMatch(/FAIL instance secret: .*is missing, but this database holds content sealed/);

    await writeFile(file, OTHER_SECRET + "\n", { mode: 0o600 });
    const replaced = await setupError(env);
    expect(replaced.message).toContain(`The instance secret in ${file} is not the one this database's content was sealed and signed with`);
    expect(await readFile(file, "utf8")).toBe(OTHER_SECRET + "\n");

    const fromEnv = await setupError({ ...env, TEAMMEM_AUTH_SECRET: OTHER_SECRET });
    expect(fromEnv.message).toMatch(/^TEAMMEM_AUTH_SECRET is not the instance secret .*set the same TEAMMEM_AUTH_SECRET on every instance/);

    // A database from before the check kept in it: its sealed proposal tells the secrets apart.
    await forgetSecretCheck(env);
    await rm(file);
    expect((await setupError(env)).message).toMatch(/is missing, but this database holds content sealed/);
    expect(existsSync(file)).toBe(false);

    await writeFile(file, original, { mode: 0o600 });
    await runSetup(loadConfig(env));
    expect(runDoctor(env).code).toBe(0);
    const db = createDb(loadConfig(env));
    try {
      const blocked = await db.proposal.findFirstOrThrow({ where: { state: "blocked_secret" } });
      expect((await getProposal(loadConfig(env), db, blocked.id)).content).toContain("[REDACTED");
    } finally {
      await db.$disconnect();
    }
  });

  it("is generated anew only for a database that holds nothing sealed with an old one", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "off", TEAMMEM_CLAUDE_HOME: "" };
    await runSetup(loadConfig(env));
    const file = path.join(dataDir, "auth-secret");
    const first = await readFile(file, "utf8");
    await forgetSecretCheck(env); // as before the check existed: nothing sealed, nothing recorded
    await rm(file);
    await runSetup(loadConfig(env));
    const second = await readFile(file, "utf8");
    expect(second.trim().length).toBeGreaterThanOrEqual(32);
    expect(second).not.toBe(first);
  });

  it("answers a clear CONFIG_INVALID, not an unknown error, for content sealed with another secret", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const env = { TEAMMEM_DATA_DIR: dataDir, TEAMMEM_DEMO: "on", TEAMMEM_INITIAL_PASSWORD: "long-enough-password" };
    await runSetup(loadConfig(env));
    const config = loadConfig({ ...env, TEAMMEM_AUTH_SECRET: OTHER_SECRET });
    const db = createDb(config);
    try {
      const blocked = await db.proposal.findFirstOrThrow({ where: { state: "blocked_secret" } });
      const error = await getProposal(config, db, blocked.id).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("CONFIG_INVALID");
      expect((error as AppError).message).toMatch(/sealed with a different instance secret .*auth-secret from its backup.*TEAMMEM_AUTH_SECRET/);
    } finally {
      await db.$disconnect();
    }
  });
});
