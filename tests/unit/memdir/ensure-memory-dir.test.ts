import { mkdtemp, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureMemoryDir } from "@/lib/memdir/ensure-memory-dir";

describe("ensureMemoryDir", () => {
  it("P5: creates the whole chain and is idempotent", async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), "memdir-ensure-")), "a/b/memory");
    await ensureMemoryDir(dir);
    await ensureMemoryDir(dir);
    expect((await stat(dir)).isDirectory()).toBe(true);
  });
});
