import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataDir } from "@/lib/setup/ensure-data-dir";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "data-dir-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("ensureDataDir", () => {
  it("creates a data folder and the folders above it, and says it did so once", async () => {
    const dataDir = path.join(root, "srv", "teammem", "data");
    expect(await ensureDataDir(dataDir)).toEqual({ created: true });
    expect(statSync(dataDir).isDirectory()).toBe(true);
    expect(await ensureDataDir(dataDir)).toEqual({ created: false });
  });

  it("names TEAMMEM_DATA_DIR when a file stands where a folder above it should be", async () => {
    await writeFile(path.join(root, "a-file"), "");
    await expect(ensureDataDir(path.join(root, "a-file", "data"))).rejects.toMatchObject({ code: "DATA_DIR_UNAVAILABLE", message: expect.stringContaining("set TEAMMEM_DATA_DIR") });
  });

  // Node's recursive mkdir spins forever on /proc (ENOENT although the parent exists): start-up
  // hung at 100 % CPU without a word.
  it.runIf(existsSync("/proc/self"))("refuses a folder under /proc at once instead of hanging", async () => {
    await expect(ensureDataDir(`/proc/teammem-${process.pid}/data`)).rejects.toMatchObject({ code: "DATA_DIR_UNAVAILABLE", message: expect.stringContaining("could not be created") });
  }, 5_000);
});
