import type { Config } from "../config";
import { AppError } from "../errors";
import { parseMemoryHeader, type MemoryType } from "../memdir/frontmatter";
import { maskOptionalText } from "../secrets/mask-secret-ranges";
import { fetchOrigin, lastChangeTimes, listTree, readBlobs, readFileAt, resolveRef, withRepoLock } from "./git";
import { projectDir, STORE_MANIFEST_FILE, StoreManifest } from "./store-manifest";
import { parseJsonOrNull } from "../parse-json";

/** The store as approved: the server reads the clone's copy of origin's main, never a checkout. */
export const MAIN = "refs/remotes/origin/main";
const REFRESH_INTERVAL_MS = 5_000;
let lastRefresh = new Map<string, number>();

export type StoreProject = {
  id: string;
  name: string;
  remote: string | null;
  memoryCount: number;
  countsByType: Record<MemoryType | "untyped", number>;
  lastChangedAt: Date | null;
};

export type StoreMemory = {
  path: string;
  name: string | null;
  description: string | null;
  type: MemoryType | null;
  updatedAt: Date | null;
  size: number;
};

/** Fetches the store into the server's clone, at most every few seconds. */
export async function refreshStore(config: Config, options: { force?: boolean } = {}): Promise<void> {
  const last = lastRefresh.get(config.storeCloneDir) ?? 0;
  if (!options.force && Date.now() - last < REFRESH_INTERVAL_MS) return;
  await withRepoLock(config.storeCloneDir, () => fetchOrigin(config.storeCloneDir));
  lastRefresh = new Map(lastRefresh).set(config.storeCloneDir, Date.now());
}

/** The projects in the store with their memory counts; empty for a store with no commits. */
export async function listStoreProjects(config: Config): Promise<StoreProject[]> {
  const manifest = await readStoreManifest(config);
  if (!manifest) return [];
  const files = await listTree(config.storeCloneDir, MAIN, "projects");
  return Promise.all(
    manifest.projects.map(async (project) => {
      const memories = await listProjectMemories(config, project.id, files);
      const countsByType = { user: 0, feedback: 0, project: 0, reference: 0, untyped: 0 };
      for (const memory of memories) countsByType[memory.type ?? "untyped"]++;
      const times = memories.flatMap((memory) => (memory.updatedAt ? [memory.updatedAt.getTime()] : []));
      return {
        id: project.id,
        name: project.name,
        remote: project.remote ?? null,
        memoryCount: memories.length,
        countsByType,
        lastChangedAt: times.length ? new Date(Math.max(...times)) : null,
      };
    }),
  );
}

/** Every memory file of one project at the store's main branch, newest first. */
export async function listProjectMemories(
  config: Config,
  projectId: string,
  tree?: Awaited<ReturnType<typeof listTree>>,
): Promise<StoreMemory[]> {
  const prefix = `${projectDir(projectId)}/`;
  const entries = (tree ?? (await listTree(config.storeCloneDir, MAIN, prefix))).filter(
    // C5: every *.md at any depth is a memory, except files named MEMORY.md (indexes).
    (entry) => entry.path.startsWith(prefix) && entry.path.endsWith(".md") && !/(^|\/)MEMORY\.md$/.test(entry.path),
  );
  const [contents, times] = await Promise.all([
    readBlobs(config.storeCloneDir, entries.map((entry) => entry.blob)),
    lastChangeTimes(config.storeCloneDir, MAIN, prefix),
  ]);
  const memories = entries.map((entry) => {
    const header = parseMemoryHeader(contents.get(entry.blob) ?? "");
    return {
      path: entry.path.slice(prefix.length),
      // Shown on pages and in API answers: a secret that reached the store still stays masked.
      name: maskOptionalText(header.name),
      description: maskOptionalText(header.description),
      type: header.type,
      updatedAt: times.get(entry.path) ?? null,
      size: entry.size,
    };
  });
  return memories.sort((a, b) => (b.updatedAt?.getTime() ?? 0) - (a.updatedAt?.getTime() ?? 0));
}

export type StoreFile = { path: string; text: string; updatedAt: Date | null };

/**
 * Every file of one project at main (memories, MEMORY.md and anything else), with its text and
 * last change time, paths relative to the project folder. For checks that need whole files.
 */
export async function readProjectFiles(config: Config, projectId: string): Promise<StoreFile[]> {
  if (!(await resolveRef(config.storeCloneDir, MAIN))) return [];
  const prefix = `${projectDir(projectId)}/`;
  const entries = (await listTree(config.storeCloneDir, MAIN, prefix)).filter((entry) => entry.path.startsWith(prefix));
  const [contents, times] = await Promise.all([
    readBlobs(config.storeCloneDir, entries.map((entry) => entry.blob)),
    lastChangeTimes(config.storeCloneDir, MAIN, prefix),
  ]);
  return entries.map((entry) => ({
    path: entry.path.slice(prefix.length),
    text: contents.get(entry.blob) ?? "",
    updatedAt: times.get(entry.path) ?? null,
  }));
}

/** teammem.json at main, or null when the store has no commits yet. */
export async function readStoreManifest(config: Config): Promise<StoreManifest | null> {
  if (!(await resolveRef(config.storeCloneDir, MAIN))) return null;
  const text = await readFileAt(config.storeCloneDir, MAIN, STORE_MANIFEST_FILE);
  if (text === null) return null;
  const parsed = StoreManifest.safeParse(parseJsonOrNull(text));
  if (!parsed.success) {
    throw new AppError(
      "STORE_UNAVAILABLE",
      `The store's ${STORE_MANIFEST_FILE} is not valid (${parsed.error.issues[0]?.message ?? "unreadable"}); fix it with a commit to the store.`,
    );
  }
  return parsed.data;
}
