import { readdir, stat } from "node:fs/promises";
import path from "node:path";

/**
 * C11: how many Claude Code sessions were active since `since` — transcripts (`*.jsonl`) in the
 * project folder that holds the memory directory, changed after it (all of them when `since` is
 * null: there was no consolidation yet). Null when the memory directory is not
 * `<config home>/projects/<folder>/memory` (an override or a settings path): its sessions cannot
 * be told apart, so they are not counted.
 */
export async function countNewSessions(memoryDir: string, since: Date | null): Promise<number | null> {
  const projectFolder = path.dirname(path.resolve(memoryDir));
  if (path.basename(path.resolve(memoryDir)) !== "memory" || path.basename(path.dirname(projectFolder)) !== "projects") return null;
  const names = (await readdir(projectFolder).catch(() => [] as string[])).filter((name) => name.endsWith(".jsonl"));
  const times = await Promise.all(names.map((name) => stat(path.join(projectFolder, name)).then((info) => info.mtimeMs, () => 0)));
  return times.filter((time) => !since || time > since.getTime()).length;
}
