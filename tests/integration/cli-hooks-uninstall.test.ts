import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

/**
 * `teammem hooks uninstall` after `teammem hooks install`, through the compiled CLI on real
 * files: the settings come back as they were, the structure they had before install included
 * (an empty `"hooks": {}`, an empty event list), and what install created goes again.
 */
const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

function teammem(args: string[], env: Record<string, string>, cwd?: string) {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, ...args], { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function memberHome() {
  const home = await tempDir("teammem-hooks-uninstall-");
  const configHome = path.join(home, "claude-config");
  await mkdir(configHome, { recursive: true });
  return { home, settingsFile: path.join(configHome, "settings.json"), env: { HOME: home, CLAUDE_CONFIG_DIR: configHome } };
}

/** Installs, uninstalls, and returns the settings as parsed afterwards (key order kept). */
async function installThenUninstall(file: string, before: string, args: string[], env: Record<string, string>, cwd?: string): Promise<unknown> {
  await writeFile(file, before);
  const install = teammem(["hooks", "install", ...args], env, cwd);
  expect(install.code).toBe(0);
  expect(install.stdout).toContain("Added SessionStart: teammem sync --quiet");
  const uninstall = teammem(["hooks", "uninstall", ...args], env, cwd);
  expect(uninstall.code).toBe(0);
  expect(uninstall.stdout).toContain("Removed UserPromptSubmit: teammem recall-hook");
  return JSON.parse(await readFile(file, "utf8"));
}

describe("teammem hooks uninstall removes exactly what install added", () => {
  it("--local keeps an empty `hooks` object the checkout's settings had before install", async () => {
    const { home, env } = await memberHome();
    const checkout = path.join(home, "checkout");
    execFileSync("git", ["init", "-q", checkout]);
    const local = path.join(checkout, ".claude", "settings.local.json");
    await mkdir(path.dirname(local), { recursive: true });
    const before = '{\n  "hooks": {},\n  "permissions": {"allow": []}\n}\n';
    const after = await installThenUninstall(local, before, ["--local"], env, checkout);
    // Same keys, same values, same order.
    expect(JSON.stringify(after)).toBe(JSON.stringify(JSON.parse(before)));
  });

  it("keeps an event list that was empty before and removes the one install created", async () => {
    const { settingsFile, env } = await memberHome();
    const before = JSON.stringify({ model: "opus", hooks: { SessionStart: [], Stop: [{ hooks: [{ type: "command", command: "notify-done" }] }] } }, null, 2);
    const after = await installThenUninstall(settingsFile, before, [], env);
    expect(JSON.stringify(after)).toBe(JSON.stringify(JSON.parse(before)));
  });

  it("removes the `hooks` object install created in settings that had none", async () => {
    const { settingsFile, env } = await memberHome();
    const after = await installThenUninstall(settingsFile, '{\n  "model": "opus"\n}\n', [], env);
    expect(after).toEqual({ model: "opus" });
  });
});
