import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listClaudeProjects } from "@/lib/memdir/list-claude-projects";

describe("listClaudeProjects", () => {
  it("T1: counts private and team memories per project, all of them (not only the newest 200)", async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), "memdir-projects-"));
    const memoryDir = path.join(home, "projects/-repo/memory");
    await mkdir(path.join(memoryDir, "team"), { recursive: true });
    await mkdir(path.join(home, "projects/-empty"), { recursive: true });
    for (let index = 0; index < 210; index++) await writeFile(path.join(memoryDir, `m${index}.md`), "x");
    await writeFile(path.join(memoryDir, "team/t.md"), "x");
    expect(await listClaudeProjects(home)).toEqual([{ folder: "-repo", memoryDir, privateCount: 210, teamCount: 1, skippedCount: 0 }]);
  });

  it("a home without projects lists nothing", async () => {
    expect(await listClaudeProjects(await mkdtemp(path.join(os.tmpdir(), "memdir-projects-")))).toEqual([]);
  });
});
