import { mkdtemp, rm, utimes } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Config } from "../config";
import { findKeyProblem } from "../memdir/validate-memory-key";
import { writeMemoryFile } from "../memdir/write-memory-file";
import { readProjectFiles } from "../store/read-store";

const WRITE_CONCURRENCY = 16;

/**
 * lib/memdir checks directories, while the server reads the store from git objects without a
 * checkout. So a project's files at main are written to a fresh temporary folder, each with its
 * mtime set to its last change in the store (F4 and A1 read the mtime), checked there by the very
 * same rules as a member's directory, and removed afterwards.
 */
export async function withStoreSnapshot<T>(config: Config, projectId: string, work: (memoryDir: string) => Promise<T>): Promise<T> {
  const files = await readProjectFiles(config, projectId);
  const root = await mkdtemp(path.join(os.tmpdir(), "teammem-snapshot-"));
  try {
    // git cannot store `..` or absolute names; anything odd is left out rather than trusted.
    const queue = files.filter((file) => findKeyProblem(file.path) === null);
    const workers = Array.from({ length: Math.min(WRITE_CONCURRENCY, queue.length) }, async () => {
      for (let file = queue.pop(); file; file = queue.pop()) {
        const written = await writeMemoryFile({ memoryDir: root, relativePath: file.path, content: file.text });
        if (file.updatedAt) await utimes(written, file.updatedAt, file.updatedAt);
      }
    });
    await Promise.all(workers);
    return await work(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
