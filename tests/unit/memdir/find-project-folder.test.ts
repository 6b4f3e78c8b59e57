import { mkdir, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectFolder } from "@/lib/memdir/find-project-folder";

describe("findProjectFolder", () => {
  it("C1: short paths match exactly; a missing folder returns the expected name", async () => {
    const configHome = await mkdtemp(path.join(os.tmpdir(), "memdir-folder-"));
    await mkdir(path.join(configHome, "projects/-repo-a"), { recursive: true });
    expect(await findProjectFolder(configHome, "/repo/a")).toEqual({ folder: "-repo-a", exists: true });
    expect(await findProjectFolder(configHome, "/repo/b")).toEqual({ folder: "-repo-b", exists: false });
  });

  it("C1: long paths match any hash after the 200-unit prefix, but not a different prefix", async () => {
    const configHome = await mkdtemp(path.join(os.tmpdir(), "memdir-folder-"));
    const longPath = "/" + "p".repeat(250);
    const prefix = "-" + "p".repeat(199);
    await mkdir(path.join(configHome, "projects", `${prefix}-zz9`), { recursive: true });
    expect(await findProjectFolder(configHome, longPath)).toEqual({ folder: `${prefix}-zz9`, exists: true });
    expect((await findProjectFolder(configHome, "/" + "q".repeat(250))).exists).toBe(false);
  });
});
