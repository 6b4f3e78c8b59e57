import { randomUUID } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a whole file so that a reader sees the old text or the new one, never half: a temporary
 * file in the same folder (same file system, so the rename is atomic), then a rename over the
 * target. Owner-only by default: these files hold tokens, settings and state. A failed write
 * leaves no temporary file behind.
 */
export async function writeFileAtomically(file: string, text: string, options: { mode?: number } = {}): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  try {
    await writeFile(temp, text, { mode: options.mode ?? 0o600, flag: "wx" });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
