import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Caller } from "../auth/resolve-caller";
import { resolvePrivateMemoryDir } from "./resolve-private-memory-dir";

export const MEMORY_SCOPES = ["team", "private"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/**
 * Where memories are read from. A team project (the store) and a private folder (Claude Code's
 * `<home>/projects/<folder>/memory/`) are separate sources on purpose: a store project's id comes
 * from the repository's remote, a private folder's name from a local checkout path (C1), and that
 * name is not reversible, so pairing them would be a guess. The dashboard lists both and lets the
 * owner of the home pick a folder; it never claims a private folder belongs to a team project.
 */
export type MemorySource = { scope: "team"; projectId: string } | { scope: "private"; folder: string };

export type MemorySourceOptions = { config: Config; db: Db; caller: Caller; source: MemorySource };

export type OpenMemoryDir = {
  /** A real directory laid out as Claude Code's memory directory. */
  memoryDir: string;
  /** How an agent names this directory in the A3 header (see displayDirFor). */
  displayDir: string;
};

/**
 * Checks the caller may read a private folder (only the Claude home's owner may), then runs
 * `work` on it as a memory directory, so every lib/memdir rule applies as on a laptop. Team
 * memory is not read from a folder: it comes from the read model (lib/read-model).
 */
export async function withMemoryDir<T>(options: { config: Config; caller: Caller; folder: string }, work: (dir: OpenMemoryDir) => Promise<T>): Promise<T> {
  const memoryDir = await resolvePrivateMemoryDir(options.config, options.caller, options.folder);
  return work({ memoryDir, displayDir: memoryDir });
}

/** The page address of a source's memory or index, with each path segment encoded. */
export function memoryHref(source: MemorySource, memoryPath: string): string {
  const sourceSegment = source.scope === "team" ? source.projectId : source.folder;
  const pathSegments = memoryPath.split("/").map(encodeURIComponent).join("/");
  return `/memories/${source.scope}/${encodeURIComponent(sourceSegment)}/${pathSegments}`;
}
