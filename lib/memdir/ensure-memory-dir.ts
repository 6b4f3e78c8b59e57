import { mkdir } from "node:fs/promises";

/**
 * P5: create the memory directory (and its parents) at session start, idempotently, so no agent
 * wastes a turn checking for it. Returns the directory.
 */
export async function ensureMemoryDir(memoryDir: string): Promise<string> {
  await mkdir(memoryDir, { recursive: true });
  return memoryDir;
}
