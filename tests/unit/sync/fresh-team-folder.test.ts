import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTeamFiles } from "@/lib/sync/team-files";

let root: string;
let memoryDir: string;
let teamDir: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "teammem-fresh-team-"));
  memoryDir = path.join(root, "memory");
  teamDir = path.join(memoryDir, "team");
});
afterEach(() => rm(root, { recursive: true, force: true }));

const changedAt = new Date("2026-11-20T08:30:00.000Z");
const besideMemoryDir = async () => (await readdir(root)).filter((name) => name !== "memory");

describe("a first pull's fresh team folder", () => {
  it("appears as team/ whole, with each file's content, mtime and the inode the sync recorded, and leaves nothing beside the memory directory", async () => {
    const fresh = (await createTeamFiles(memoryDir, teamDir, { isDryRun: false }).startFreshFolder())!;
    expect(fresh).not.toBeNull();
    const recorded = await fresh.write("project_a.md", "alpha\n", changedAt);
    await fresh.write("notes/deep/b.md", "beta\n", changedAt);
    await expect(stat(teamDir)).rejects.toThrow(); // nothing in team/ until the folder is placed
    expect(await fresh.place()).toEqual([]);
    expect(await readFile(path.join(teamDir, "project_a.md"), "utf8")).toBe("alpha\n");
    expect(await readFile(path.join(teamDir, "notes/deep/b.md"), "utf8")).toBe("beta\n");
    const placed = await stat(path.join(teamDir, "project_a.md"));
    expect({ ino: placed.ino, mtimeMs: placed.mtimeMs, size: placed.size }).toEqual(recorded);
    expect(placed.mtimeMs).toBe(changedAt.getTime());
    expect(await besideMemoryDir()).toEqual([]);
  });

  it("places file by file when team/ appeared meanwhile, never over a file saved there, and says which were not placed", async () => {
    const fresh = (await createTeamFiles(memoryDir, teamDir, { isDryRun: false }).startFreshFolder())!;
    await fresh.write("project_a.md", "from the store\n", changedAt);
    await fresh.write("project_b.md", "beta\n", changedAt);
    await mkdir(teamDir, { recursive: true });
    await writeFile(path.join(teamDir, "project_a.md"), "saved by Claude Code meanwhile\n");
    expect(await fresh.place()).toEqual(["project_a.md"]);
    expect(await readFile(path.join(teamDir, "project_a.md"), "utf8")).toBe("saved by Claude Code meanwhile\n");
    expect(await readFile(path.join(teamDir, "project_b.md"), "utf8")).toBe("beta\n");
    expect((await stat(path.join(teamDir, "project_b.md"))).mtimeMs).toBe(changedAt.getTime());
    expect(await besideMemoryDir()).toEqual([]);
  });

  it("is not used when team/ exists, and removes the folder a killed sync left", async () => {
    const files = createTeamFiles(memoryDir, teamDir, { isDryRun: false });
    const left = (await files.startFreshFolder())!;
    await left.write("project_a.md", "half a pull\n", changedAt); // killed here: never placed
    expect(await besideMemoryDir()).toHaveLength(1);
    const next = (await createTeamFiles(memoryDir, teamDir, { isDryRun: false }).startFreshFolder())!;
    expect(await besideMemoryDir()).toHaveLength(1); // the left folder went, the new one is there
    await next.write("project_a.md", "whole pull\n", changedAt);
    await next.place();
    expect(await besideMemoryDir()).toEqual([]);
    expect(await files.startFreshFolder()).toBeNull();
    expect(await createTeamFiles(memoryDir, teamDir, { isDryRun: true }).startFreshFolder()).toBeNull();
  });
});
