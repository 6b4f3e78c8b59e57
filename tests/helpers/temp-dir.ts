import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/** A fresh temporary folder per call, removed after the test that made it. */
export function useTempDirs(): (prefix?: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    // Retried: a server's work behind its answers (a recall's staleness check, a log flush) may
    // still be writing a journal file into the folder as it goes.
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })));
  });
  return async (prefix = "teammem-test-") => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
