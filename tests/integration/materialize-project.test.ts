import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { memoryAge } from "@/lib/memdir/age";
import { scanMemoryDir } from "@/lib/memdir/scan-memory-dir";
import { runSetup } from "@/lib/setup/run-setup";
import { materializeProject } from "@/lib/store/materialize-project";
import { refreshStore } from "@/lib/store/read-store";
import { useTempDirs } from "../helpers/temp-dir";

const tempDir = useTempDirs();

describe("materializeProject", () => {
  it("lays a store project out as a memory directory whose mtimes are the write times, one folder per head", async () => {
    const config = loadConfig({ TEAMMEM_DATA_DIR: path.join(await tempDir(), "data"), TEAMMEM_DEMO: "on" });
    await runSetup(config);

    const first = await materializeProject(config, "acme-checkout");
    const scan = await scanMemoryDir(first.dir, { all: true });
    expect(scan.total).toBe(30);
    expect(existsSync(path.join(first.dir, "MEMORY.md"))).toBe(true);
    // Ages span the demo's year: the oldest is months old, the newest from today.
    const ages = scan.memories.map((memory) => memory.mtime.getTime());
    expect(memoryAge(new Date(Math.max(...ages)))).toBe("today");
    expect(Date.now() - Math.min(...ages)).toBeGreaterThan(300 * 86_400_000);
    expect((await materializeProject(config, "acme-checkout")).dir).toBe(first.dir);

    // Someone else pushes a memory: the next snapshot is a new folder at the new head.
    const other = path.join(await tempDir(), "other");
    execFileSync("git", ["clone", "-q", config.storeRemote, other]);
    await writeFile(path.join(other, "projects/acme-checkout/feedback_new.md"), "---\nname: New\ndescription: A newly approved rule\ntype: feedback\n---\nBody\n");
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", ...args], { cwd: other });
    git("add", "-A");
    git("commit", "-qm", "new");
    git("push", "-q", "origin", "HEAD:main");
    await refreshStore(config, { force: true });

    const second = await materializeProject(config, "acme-checkout");
    expect(second.commit).not.toBe(first.commit);
    expect((await scanMemoryDir(second.dir, { all: true })).total).toBe(31);
    expect((await stat(path.join(second.dir, "feedback_new.md"))).isFile()).toBe(true);
  });
});
