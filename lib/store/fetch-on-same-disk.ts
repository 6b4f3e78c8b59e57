import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { fetchOrigin, restartBatchReader } from "./git";
import { objectDatabaseOf } from "./git-objects";
import { readRefValue, swapRefFile } from "./git-refs";
import { localStoreOf } from "./push-on-same-disk";

const ORIGIN_MAIN = "refs/remotes/origin/main";

/**
 * A fetch from a store on the same disk without `git fetch` (docs/store.md, "Fetching from a
 * store on the same disk"). The clone borrows the store's objects through
 * `objects/info/alternates`, as `git clone --shared` does, so every commit of the store is
 * already readable here, and a fetch is reading the store's main and moving the clone's
 * origin/main to it by compare-and-swap. `git fetch` of one approval from a local store was
 * ~70 ms at 10,000 memories (packing, sending and indexing the new tree and MEMORY.md), and an
 * instance taking its turn after another paid it inside the store lease.
 *
 * The store's main never moves back (teammem pushes without force), so what the clone borrows
 * stays reachable there and no gc removes it. Null when this does not apply (a remote elsewhere,
 * an empty store, another object format, a ref that moved meanwhile): the caller runs git fetch.
 */
export async function fetchOnSameDisk(clone: string): Promise<"fetched" | null> {
  const store = await localStoreOf(clone);
  if (!store) return null;
  const [own, shared] = await Promise.all([objectDatabaseOf(clone), objectDatabaseOf(store)]);
  if (!own || !shared || own.hash !== shared.hash) return null;
  const head = await readRefValue(store, "refs/heads/main");
  if (head === null) return null;
  if (await borrowObjects(own.objectsDir, shared.objectsDir)) restartBatchReader(clone);
  const gitDir = path.join(clone, ".git");
  const current = await readRefValue(gitDir, ORIGIN_MAIN);
  if (current === head) return "fetched";
  return (await swapRefFile(gitDir, ORIGIN_MAIN, head, current)) === "updated" ? "fetched" : null;
}

/** Adds the store's objects folder to the clone's alternates once (written whole, then renamed into place); true when it did. */
async function borrowObjects(objectsDir: string, storeObjectsDir: string): Promise<boolean> {
  const file = path.join(objectsDir, "info", "alternates");
  const lines = (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
  const target = path.resolve(storeObjectsDir);
  if (lines.some((line) => path.resolve(objectsDir, line) === target)) return false;
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, [...lines, target].join("\n") + "\n");
  await rename(temporary, file);
  return true;
}

/**
 * Brings the clone's origin/main up to the store's: on the same disk directly, else `git fetch`.
 * A store without main is empty only when this clone has never seen a commit of it; otherwise the
 * store lost its history, and the clone's origin/main, which still records it, is left as it is.
 */
export async function fetchStore(clone: string): Promise<void> {
  try {
    if (await fetchOnSameDisk(clone)) return;
  } catch {
    // An unreadable file on the direct path: git fetch decides, and names the problem if there is one.
  }
  if ((await fetchOrigin(clone)) === "fetched") return;
  const known = await readRefValue(path.join(clone, ".git"), ORIGIN_MAIN);
  if (known !== null) throw mainBranchLost(known);
}

function mainBranchLost(known: string): AppError {
  return new AppError(
    "STORE_UNAVAILABLE",
    `The team store has no main branch any more, although this server's copy holds its history up to commit ${known.slice(0, 12)}; ` +
      "nothing was changed. Restart teammem (npm start) for the steps to restore it (docs/store.md, \"When the store's history is missing\").",
  );
}
