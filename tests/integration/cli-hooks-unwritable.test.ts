import { spawnSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCompiledCli, TEAMMEM_BIN } from "../helpers/compiled-cli";
import { useTempDirs } from "../helpers/temp-dir";

/**
 * `teammem hooks install` on settings the member cannot write: a settings.json that links into a
 * read-only folder (as dotfile and Nix managers leave it), a config folder they cannot create.
 * The compiled CLI runs on real files with an ordinary user's permission checks: when the tests
 * run as root (CI containers), as root without the capabilities that let root write anywhere
 * (setpriv, util-linux). Not as another user: the checkout may sit in a folder only root can
 * enter (a `mktemp -d` clone), where such a user could not even load the CLI.
 */
const tempDir = useTempDirs();
beforeAll(ensureCompiledCli);

const isRoot = process.getuid?.() === 0;
const WITHOUT_OVERRIDES = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"];

function teammemAsMember(args: string[], env: Record<string, string>) {
  const [command, ...prefix] = isRoot ? [...WITHOUT_OVERRIDES, process.execPath] : [process.execPath];
  const result = spawnSync(command!, [...prefix, TEAMMEM_BIN, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A folder the member owns (and so can write). */
async function memberFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
}

async function world() {
  const root = await tempDir("teammem-hooks-unwritable-");
  await chmod(root, 0o755); // the member walks through it
  const home = path.join(root, "home");
  await memberFolder(home);
  return { root, home };
}

describe("teammem hooks install on settings it cannot write", () => {
  it("names the settings file, its link target and the cause, exits 2 and changes nothing", async () => {
    const { root, home } = await world();
    const store = path.join(root, "store");
    await mkdir(store);
    const target = path.join(store, "settings.json");
    await writeFile(target, '{"model":"opus"}\n', { mode: 0o444 });
    await chmod(store, 0o555); // not the member's to write
    const claudeConfig = path.join(root, "claude");
    await memberFolder(claudeConfig);
    const settingsFile = path.join(claudeConfig, "settings.json");
    await symlink(target, settingsFile);

    const result = teammemAsMember(["hooks", "install"], { HOME: home, CLAUDE_CONFIG_DIR: claudeConfig });
    await chmod(store, 0o755); // for the clean-up
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain("unexpected error");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`Cannot write ${settingsFile} (a link to ${target}): permission denied. Nothing was changed.`);
    expect(await readFile(target, "utf8")).toBe('{"model":"opus"}\n');
    expect(await readdir(store)).toEqual(["settings.json"]);
    await expect(readdir(path.join(home, ".config"))).rejects.toThrow(); // no install recorded either
  });

  it("leaves a settings file its owner made read-only alone, in a folder the member may write", async () => {
    const { root, home } = await world();
    const claudeConfig = path.join(root, "claude");
    await memberFolder(claudeConfig);
    const settingsFile = path.join(claudeConfig, "settings.json");
    await writeFile(settingsFile, '{"model":"opus"}\n', { mode: 0o444 });

    const result = teammemAsMember(["hooks", "install"], { HOME: home, CLAUDE_CONFIG_DIR: claudeConfig });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Cannot write ${settingsFile}: permission denied. Nothing was changed.`);
    expect(await readFile(settingsFile, "utf8")).toBe('{"model":"opus"}\n');
    expect(await readdir(claudeConfig)).toEqual(["settings.json"]); // no backup of an unchanged file
  });

  it("says the same for a settings folder it cannot create", async () => {
    const { root, home } = await world();
    const locked = path.join(root, "locked");
    await mkdir(locked, { mode: 0o555 });
    const claudeConfig = path.join(locked, "claude");

    const result = teammemAsMember(["hooks", "install"], { HOME: home, CLAUDE_CONFIG_DIR: claudeConfig });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(new RegExp(`^teammem: Cannot write ${path.join(claudeConfig, "settings.json")}: permission denied\\. Nothing was changed\\. Make the file and its folder writable`));
    expect(await readdir(locked)).toEqual([]);
  });
});
