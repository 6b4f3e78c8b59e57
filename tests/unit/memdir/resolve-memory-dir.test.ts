import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sanitizeProjectPath } from "@/lib/memdir/paths";
import { resolveMemoryDir } from "@/lib/memdir/resolve-memory-dir";

async function repo(): Promise<{ homeDir: string; root: string }> {
  const base = await mkdtemp(path.join(os.tmpdir(), "memdir-resolve-"));
  const root = path.join(base, "repo");
  await mkdir(path.join(root, ".git"), { recursive: true });
  await mkdir(path.join(root, "sub"));
  await mkdir(path.join(base, "home/.claude"), { recursive: true });
  return { homeDir: path.join(base, "home"), root };
}

describe("resolveMemoryDir", () => {
  it("P1, C2: defaults to the git root's folder, even when started in a subfolder", async () => {
    const { homeDir, root } = await repo();
    expect(await resolveMemoryDir({ env: {}, homeDir, cwd: path.join(root, "sub") })).toEqual({
      memoryDir: path.join(homeDir, ".claude/projects", sanitizeProjectPath(root), "memory"),
      source: "default",
      configHome: path.join(homeDir, ".claude"),
    });
  });

  it("P2: the env override beats settings, settings beat the default", async () => {
    const { homeDir, root } = await repo();
    await writeFile(path.join(homeDir, ".claude/settings.json"), JSON.stringify({ autoMemoryDirectory: "~/mem" }));
    expect(await resolveMemoryDir({ env: {}, homeDir, cwd: root })).toMatchObject({ memoryDir: path.join(homeDir, "mem"), source: "settings-user" });
    expect(await resolveMemoryDir({ env: { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: "/srv/cowork" }, homeDir, cwd: root })).toMatchObject({ memoryDir: "/srv/cowork", source: "env-override" });
  });

  it("P3: a repository's own settings cannot move memory", async () => {
    const { homeDir, root } = await repo();
    await mkdir(path.join(root, ".claude"));
    await writeFile(path.join(root, ".claude/settings.json"), JSON.stringify({ autoMemoryDirectory: path.join(homeDir, ".ssh") }));
    expect((await resolveMemoryDir({ env: {}, homeDir, cwd: root })).source).toBe("default");
  });
});
