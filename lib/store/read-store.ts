import type { Config } from "../config";
import { AppError, isAppError } from "../errors";
import { log } from "../log";
import { parseMemoryHeader, type MemoryType } from "../memdir/frontmatter";
import { maskOptionalText } from "../secrets/mask-secret-ranges";
import { lastChangeTimes, listTree, readBlobs, readFileAt, resolveRefQuickly, withRepoLock } from "./git";
import { projectDir, STORE_MANIFEST_FILE, StoreManifest } from "./store-manifest";
import { parseJsonOrNull } from "../parse-json";
import { processWide } from "../process-wide";
import { fetchStore } from "./fetch-on-same-disk";

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

export type RefreshOptions = {
  /** Fetch now, even if the last fetch is recent. */
  force?: boolean;
  /**
   * For decisions that must see the store as it is now (did a push land?): a failed fetch
   * throws STORE_UNAVAILABLE instead of leaving the last known state in place.
   */
  mustReach?: boolean;
};

export type StoreStatus = {
  /** When the last fetch succeeded in this process; null before the first one. */
  lastFetchedAt: Date | null;
  /** Since when every fetch has failed; null while the store answers. Reads serve the last known state meanwhile. */
  unreachableSince: Date | null;
};

// Per process: one fetch at a time per clone, and one answer to "is the store reachable".
const statusByClone = processWide("storeStatus", () => new Map<string, StoreStatus>());
const inFlight = processWide("storeFetches", () => new Map<string, Promise<void>>());

/**
 * Fetches the store into the server's clone, at most every few seconds (after the first fetch, in
 * the background of the request that asked). When the remote cannot be reached, reads keep
 * serving the clone's last known origin/main and getStoreStatus says since when; only `mustReach`
 * callers get the error.
 */
export async function refreshStore(config: Config, options: RefreshOptions = {}): Promise<void> {
  const clone = config.storeCloneDir;
  const last = lastRefresh.get(clone) ?? 0;
  const status = getStoreStatus(config);
  if (!options.force && !options.mustReach && Date.now() - last < REFRESH_INTERVAL_MS) return;
  const running = inFlight.get(clone);
  // A routine refresh after an earlier one does not hold the request: the clone already has a
  // known state and the read model's commit in the shared database is what keeps reads correct
  // across instances. The fetch runs behind it and the next request sees what it brought (a
  // request waiting ~50 ms on git every 5 s set the p95 of recall under load).
  if (!options.force && !options.mustReach && lastRefresh.has(clone)) {
    if (!running) startFetch(clone).catch(() => undefined); // the outcome is recorded in getStoreStatus
    return;
  }
  // A reader does not queue behind a fetch to a remote that is known to be down: it serves what the clone has.
  if (running && status.unreachableSince && !options.mustReach) return;
  const fetching = running && !options.force && !options.mustReach ? running : startFetch(clone);
  try {
    await fetching;
  } catch (error) {
    if (options.mustReach || !isAppError(error) || error.code !== "STORE_UNAVAILABLE") throw error;
  }
}

function startFetch(clone: string): Promise<void> {
  const fetching = withRepoLock(clone, () => fetchStore(clone)).then(
    () => {
      statusByClone.set(clone, { lastFetchedAt: new Date(), unreachableSince: null });
    },
    (error: unknown) => {
      const previous = statusByClone.get(clone);
      if (!previous?.unreachableSince) log("warn", "store.unreachable", { error: isAppError(error) ? error.code : "unknown" });
      statusByClone.set(clone, { lastFetchedAt: previous?.lastFetchedAt ?? null, unreachableSince: previous?.unreachableSince ?? new Date() });
      throw error;
    },
  );
  // Failed or not, the next attempt waits the usual interval, so a dead remote is not hammered.
  const settled = fetching.finally(() => {
    lastRefresh = new Map(lastRefresh).set(clone, Date.now());
    if (inFlight.get(clone) === settled) inFlight.delete(clone);
  });
  inFlight.set(clone, settled);
  return settled;
}

/** Whether this server reaches the team store, and since when it has not (for pages, the API and health). */
export function getStoreStatus(config: Pick<Config, "storeCloneDir">): StoreStatus {
  return statusByClone.get(config.storeCloneDir) ?? { lastFetchedAt: null, unreachableSince: null };
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
  if (!(await resolveRefQuickly(config.storeCloneDir, MAIN))) return [];
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
  if (!(await resolveRefQuickly(config.storeCloneDir, MAIN))) return null;
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
