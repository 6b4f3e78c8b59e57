import { spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

/**
 * A member who already ran teammem's commands from their own hooks before `teammem hooks
 * install`: install takes such a hook as present and adds nothing for it, so uninstall must leave
 * it too. Through the compiled CLI on real files in a temporary home.
 */
const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

function teammem(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function memberHome(settings: unknown) {
  const home = await tempDir("teammem-hooks-own-");
  const configHome = path.join(home, "claude-config");
  await mkdir(configHome, { recursive: true });
  const settingsFile = path.join(configHome, "settings.json");
  await writeFile(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  return { home, configHome, settingsFile, env: { HOME: home, CLAUDE_CONFIG_DIR: configHome } };
}

const OWN_SESSION_SYNC = { matcher: "startup", hooks: [{ type: "command", command: "teammem sync --quiet" }] };
const OWN_PROMPT_RECALL = { hooks: [{ type: "command", command: "teammem recall-hook" }] };

describe("teammem hooks uninstall leaves the member's own teammem hooks", () => {
  it("removes the hook install added and keeps the SessionStart hook the member had before, on every later uninstall too", async () => {
    const before = { model: "opus", hooks: { SessionStart: [OWN_SESSION_SYNC] } };
    const { settingsFile, env } = await memberHome(before);

    const install = teammem(["hooks", "install"], env);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("Added UserPromptSubmit: teammem recall-hook");
    expect(install.stdout).not.toContain("Added SessionStart");

    const uninstall = teammem(["hooks", "uninstall"], env);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain("Removed UserPromptSubmit: teammem recall-hook");
    expect(uninstall.stdout).toContain("Kept SessionStart: teammem sync --quiet");
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual(before);

    const again = teammem(["hooks", "uninstall", "--json"], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ changes: [], kept: ["SessionStart: teammem sync --quiet"], wrote: false });
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual(before);
  });

  it("an install that found both hooks there adds nothing, and uninstall then removes nothing", async () => {
    const before = { hooks: { SessionStart: [OWN_SESSION_SYNC], UserPromptSubmit: [OWN_PROMPT_RECALL] } };
    const { configHome, settingsFile, env } = await memberHome(before);
    const text = await readFile(settingsFile, "utf8");

    expect(teammem(["hooks", "install"], env).stdout).toContain("already");
    const uninstall = teammem(["hooks", "uninstall"], env);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain("Kept UserPromptSubmit: teammem recall-hook");
    expect(await readFile(settingsFile, "utf8")).toBe(text);
    expect(await readdir(configHome)).toEqual(["settings.json"]); // no backup: nothing was written
  });

  it("hooks an install added are removed after a later install that found them (installing twice stays idempotent)", async () => {
    const { settingsFile, env } = await memberHome({ model: "opus" });
    expect(teammem(["hooks", "install"], env).code).toBe(0);
    expect(teammem(["hooks", "install"], env).stdout).toContain("already");
    const uninstall = teammem(["hooks", "uninstall"], env);
    expect(uninstall.stdout).toContain("Removed SessionStart: teammem sync --quiet");
    expect(uninstall.stdout).toContain("Removed UserPromptSubmit: teammem recall-hook");
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual({ model: "opus" });
  });

  it("a record from before installs noted their hooks still lets uninstall remove what is there", async () => {
    const { home, settingsFile, env } = await memberHome({ hooks: { SessionStart: [OWN_SESSION_SYNC], UserPromptSubmit: [OWN_PROMPT_RECALL] } });
    await mkdir(path.join(home, ".config", "teammem"), { recursive: true });
    await writeFile(path.join(home, ".config", "teammem", "installed-hooks.json"), JSON.stringify({ [await realpath(settingsFile)]: ["hooks", "hooks.SessionStart", "hooks.UserPromptSubmit"] }));
    const uninstall = teammem(["hooks", "uninstall"], env);
    expect(uninstall.stdout).toContain("Removed SessionStart: teammem sync --quiet");
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual({});
  });
});
