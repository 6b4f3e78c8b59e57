import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acceptMemoryDirectoryOverride, readAutoMemoryDirectory } from "@/lib/memdir/read-auto-memory-directory";

async function setup(): Promise<{ homeDir: string; configHome: string; projectDir: string }> {
  const homeDir = await mkdtemp(path.join(os.tmpdir(), "memdir-settings-"));
  const configHome = path.join(homeDir, ".claude");
  const projectDir = path.join(homeDir, "repo");
  await mkdir(path.join(projectDir, ".claude"), { recursive: true });
  await mkdir(configHome, { recursive: true });
  return { homeDir, configHome, projectDir };
}

const json = (file: string, value: unknown): Promise<void> => writeFile(file, JSON.stringify(value));

describe("readAutoMemoryDirectory", () => {
  it("P3: project settings are never read, even when they are the only source", async () => {
    const options = await setup();
    await json(path.join(options.projectDir, ".claude/settings.json"), { autoMemoryDirectory: "~/.ssh" });
    expect(await readAutoMemoryDirectory(options)).toBeNull();
  });

  it("C3: policy, flag, local, user in that order; ~/ expanded", async () => {
    const options = await setup();
    await json(path.join(options.configHome, "settings.json"), { autoMemoryDirectory: "~/user-mem" });
    expect(await readAutoMemoryDirectory(options)).toEqual({ dir: path.join(options.homeDir, "user-mem"), source: "user" });
    await json(path.join(options.projectDir, ".claude/settings.local.json"), { autoMemoryDirectory: "/srv/local-mem" });
    expect(await readAutoMemoryDirectory(options)).toEqual({ dir: "/srv/local-mem", source: "local" });
    expect(await readAutoMemoryDirectory({ ...options, flagSettings: { autoMemoryDirectory: "/srv/flag" } })).toEqual({ dir: "/srv/flag", source: "flag" });
    const policySettingsFile = path.join(options.homeDir, "managed-settings.json");
    await json(policySettingsFile, { autoMemoryDirectory: "/srv/policy" });
    expect(await readAutoMemoryDirectory({ ...options, policySettingsFile, flagSettings: { autoMemoryDirectory: "/srv/flag" } })).toEqual({ dir: "/srv/policy", source: "policy" });
  });

  it("C3: an invalid value is skipped and the next source is used", async () => {
    const options = await setup();
    await json(path.join(options.projectDir, ".claude/settings.local.json"), { autoMemoryDirectory: "relative/dir" });
    await json(path.join(options.configHome, "settings.json"), { autoMemoryDirectory: "/srv/ok" });
    expect(await readAutoMemoryDirectory(options)).toEqual({ dir: "/srv/ok", source: "user" });
  });

  it("C3: broken settings files contribute nothing", async () => {
    const options = await setup();
    await writeFile(path.join(options.configHome, "settings.json"), "{ not json");
    expect(await readAutoMemoryDirectory(options)).toBeNull();
  });
});

describe("acceptMemoryDirectoryOverride", () => {
  it("C3: rejects empty, relative, short, bare drive, UNC, NUL, ~ and ~/..", () => {
    for (const value of ["", "  ", "ab", "rel/dir", "C:", "C:\\", "\\\\server\\share", "//server/share", "/a\0b", "~", "~/", "~/..", "~/../etc", 42, null]) {
      expect(acceptMemoryDirectoryOverride(value, "/home/ann"), String(value)).toBeNull();
    }
  });

  it("C3: accepts absolute paths and ~/ paths", () => {
    expect(acceptMemoryDirectoryOverride("/srv/mem", "/home/ann")).toBe("/srv/mem");
    expect(acceptMemoryDirectoryOverride("~/notes/mem", "/home/ann")).toBe("/home/ann/notes/mem");
  });
});
