import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

/**
 * `teammem hooks install/uninstall` on real files, through the compiled CLI, with HOME and
 * CLAUDE_CONFIG_DIR pointing at a temporary member home.
 */
const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

function teammem(args: string[], env: Record<string, string>, cwd?: string) {
  const result = spawnSync(process.execPath, [TEAMMEM_BIN, ...args], { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const OTHER_SETTINGS = `{
    "model": "opus",
    "env": { "SOME_TOKEN_NAME": "kept as is" },
    "hooks": {
        "UserPromptSubmit": [ { "hooks": [ { "type": "command", "command": "other-tool prompt" } ] } ]
    }
}
`;

async function memberHome() {
  const home = await tempDir("teammem-hooks-home-");
  const configHome = path.join(home, "claude-config");
  return { home, configHome, settingsFile: path.join(configHome, "settings.json"), env: { HOME: home, CLAUDE_CONFIG_DIR: configHome } };
}

describe("teammem hooks install / uninstall", () => {
  it("merges into the user settings under CLAUDE_CONFIG_DIR, keeps a backup, adds nothing twice, and uninstall restores the file's content", async () => {
    const { configHome, settingsFile, env } = await memberHome();
    await mkdir(configHome, { recursive: true });
    await writeFile(settingsFile, OTHER_SETTINGS);

    const install = teammem(["hooks", "install"], env);
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("Added SessionStart: teammem sync --quiet");
    expect(install.stdout).toContain("Added UserPromptSubmit: teammem recall-hook");
    expect(install.stdout).toContain("no teammem login yet");
    const installed = JSON.parse(await readFile(settingsFile, "utf8"));
    expect(installed.model).toBe("opus");
    expect(installed.env).toEqual({ SOME_TOKEN_NAME: "kept as is" });
    expect(installed.hooks.UserPromptSubmit.map((group: { hooks: { command: string }[] }) => group.hooks[0]!.command)).toEqual(["other-tool prompt", "teammem recall-hook"]);
    expect(installed.hooks.SessionStart[0].hooks[0]).toEqual({ type: "command", command: "teammem sync --quiet", timeout: 10 });
    // The file keeps its four-space indentation; the previous text is kept beside it.
    expect(await readFile(settingsFile, "utf8")).toMatch(/^\{\n {4}"model"/);
    const backups = (await readdir(configHome)).filter((name) => name.startsWith("settings.json.bak-"));
    expect(backups).toHaveLength(1);
    expect(await readFile(path.join(configHome, backups[0]!), "utf8")).toBe(OTHER_SETTINGS);

    const again = teammem(["hooks", "install"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already");
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual(installed);
    expect((await readdir(configHome)).filter((name) => name.startsWith("settings.json.bak-"))).toHaveLength(1);

    const uninstall = teammem(["hooks", "uninstall", "--json"], env);
    expect(uninstall.code).toBe(0);
    expect(JSON.parse(uninstall.stdout)).toMatchObject({ file: settingsFile, changes: ["SessionStart: teammem sync --quiet", "UserPromptSubmit: teammem recall-hook"], wrote: true });
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual(JSON.parse(OTHER_SETTINGS));
    expect(teammem(["hooks", "uninstall"], env).stdout).toContain("holds no teammem hook");
  });

  it("creates the settings file when there is none, and --dry-run writes nothing", async () => {
    const { configHome, settingsFile, env } = await memberHome();
    const dry = teammem(["hooks", "install", "--dry-run"], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Would add UserPromptSubmit: teammem recall-hook");
    await expect(readdir(configHome)).rejects.toThrow();
    expect(teammem(["hooks", "install"], env).code).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(settingsFile, "utf8")).hooks)).toEqual(["SessionStart", "UserPromptSubmit"]);
  });

  it("refuses a settings file that is not valid JSON and leaves it byte for byte", async () => {
    const { configHome, settingsFile, env } = await memberHome();
    await mkdir(configHome, { recursive: true });
    const broken = '{\n  "env": { "API_KEY": "sk-not-to-be-echoed" },\n  "hooks": {,\n}\n';
    await writeFile(settingsFile, broken);
    const result = teammem(["hooks", "install"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${settingsFile} is not valid JSON (near line 3)`);
    expect(result.stderr).toContain("Nothing was changed");
    expect(result.stderr).not.toContain("sk-not-to-be-echoed");
    expect(await readFile(settingsFile, "utf8")).toBe(broken);
    expect(await readdir(configHome)).toEqual(["settings.json"]);
    expect(teammem(["hooks", "uninstall"], env).code).toBe(2);
  });

  it("--local writes the checkout's .claude/settings.local.json (from a subfolder too), never the checked-in settings.json", async () => {
    const { home, settingsFile, env } = await memberHome();
    const checkout = path.join(home, "src", "app");
    await mkdir(path.join(checkout, "packages", "web"), { recursive: true });
    execFileSync("git", ["init", "-q", checkout]);
    await mkdir(path.join(checkout, ".claude"));
    const checkedIn = '{ "permissions": { "allow": [] } }\n';
    await writeFile(path.join(checkout, ".claude", "settings.json"), checkedIn);

    const result = teammem(["hooks", "install", "--local"], env, path.join(checkout, "packages", "web"));
    expect(result.stderr).toBe("");
    const local = JSON.parse(await readFile(path.join(checkout, ".claude", "settings.local.json"), "utf8"));
    expect(Object.keys(local.hooks)).toEqual(["SessionStart", "UserPromptSubmit"]);
    expect(await readFile(path.join(checkout, ".claude", "settings.json"), "utf8")).toBe(checkedIn);
    await expect(readFile(settingsFile, "utf8")).rejects.toThrow(); // the user settings were not touched
    // As Claude Code does for that file: git leaves it (and its backups) out, through info/exclude, once.
    expect(result.stdout).toContain("Git ignores .claude/settings.local.json in this checkout now");
    expect(execFileSync("git", ["-C", checkout, "status", "--porcelain", "--untracked-files=all"], { encoding: "utf8" })).toBe("?? .claude/settings.json\n");
    teammem(["hooks", "install", "--local"], env, checkout);
    expect((await readFile(path.join(checkout, ".git", "info", "exclude"), "utf8")).split("/.claude/settings.local.json*").length).toBe(2);

    // Install created the local file: uninstall deletes it, with no backup beside it.
    const uninstalled = teammem(["hooks", "uninstall", "--local"], env, checkout);
    expect(uninstalled.code).toBe(0);
    expect(uninstalled.stdout).toContain("Deleted");
    expect((await readdir(path.join(checkout, ".claude"))).sort()).toEqual(["settings.json"]);
  });

  it("uninstall keeps a file install created once someone added settings of their own to it", async () => {
    const { settingsFile, env } = await memberHome();
    expect(teammem(["hooks", "install"], env).code).toBe(0);
    const installed = JSON.parse(await readFile(settingsFile, "utf8"));
    await writeFile(settingsFile, JSON.stringify({ ...installed, model: "opus" }, null, 2));
    expect(teammem(["hooks", "uninstall"], env).code).toBe(0);
    expect(JSON.parse(await readFile(settingsFile, "utf8"))).toEqual({ model: "opus" });
  });

  it("says how to use it when the action is missing", () => {
    const result = teammem(["hooks"], { HOME: "/nonexistent" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("say install or uninstall");
  });
});
