import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "../log";
import { collectGarbageWhenDue, compareAndSwapRef, isBareRepository, originUrl } from "./git";
import { copyLooseObjects, objectDatabaseOf } from "./git-objects";
import { swapRefFile } from "./git-refs";

/** What a push carries when this process built it: the commit it builds on and the objects it wrote. */
export type PushContents = { base: string | null; objects: string[] };

/**
 * A push to a store on the same disk (the embedded default, or a shared local path) without
 * `git push` (docs/store.md, "Pushing to a store on the same disk"): the objects this process
 * wrote are copied into the store, then its main moves by compare-and-swap from the commit the
 * chain was built on, which is exactly a fast-forward push's check. `git push` of one approval to
 * a local store was ~85 ms at 10,000 memories (packing, unpacking and a connectivity walk of a
 * 1.5 MB MEMORY.md); this is a few milliseconds.
 *
 * Null when it does not apply, and the caller pushes with git: a remote elsewhere, a store with
 * receive or ref hooks, object checks or a reflog of main (git must do those), or an object that
 * is not a loose file here.
 */
export async function pushOnSameDisk(clone: string, commit: string, contents: PushContents): Promise<"pushed" | "rejected" | null> {
  const store = await sameDiskStore(clone);
  if (!store) return null;
  const [from, to] = await Promise.all([objectDatabaseOf(clone), objectDatabaseOf(store)]);
  if (!from || !to || !(await copyLooseObjects(from, to, contents.objects))) return null;
  const moved = (await swapRefFile(store, "refs/heads/main", commit, contents.base)) ?? (await compareAndSwapRef(store, "refs/heads/main", commit, contents.base));
  if (moved === "moved") return "rejected";
  // As a push does: the clone's copy of origin's main follows, unless a fetch already moved it on.
  const cloneGitDir = path.join(clone, ".git");
  if ((await swapRefFile(cloneGitDir, "refs/remotes/origin/main", commit, contents.base).catch(() => null)) === null) {
    await compareAndSwapRef(clone, "refs/remotes/origin/main", commit, contents.base).catch(() => undefined);
  }
  collectGarbageNow(store, clone);
  return "pushed";
}

// The receiving side of `git push` runs `gc --auto`; direct pushes leave loose objects too.
const GC_EVERY_PUSHES = 100;
let pushesSinceGc = 0;

function collectGarbageNow(store: string, clone: string): void {
  pushesSinceGc += 1;
  if (pushesSinceGc < GC_EVERY_PUSHES) return;
  pushesSinceGc = 0;
  for (const dir of [store, clone]) {
    collectGarbageWhenDue(dir).catch((error: unknown) => log("warn", "store.gc_failed", { name: (error as Error)?.name ?? "unknown" }));
  }
}

const originOf = new Map<string, string | null>();

// Hooks git runs when it receives a push or moves a ref: a store with any of them gets `git push`.
const STORE_HOOKS = ["pre-receive", "update", "proc-receive", "post-receive", "post-update", "push-to-checkout", "reference-transaction"];

async function sameDiskStore(clone: string): Promise<string | null> {
  const store = await localStoreOf(clone);
  if (!store) return null;
  if (STORE_HOOKS.some((hook) => existsSync(path.join(store, "hooks", hook)))) return null;
  // A store that keeps a reflog of main gets one from git.
  if (existsSync(path.join(store, "logs", "refs", "heads", "main"))) return null;
  const config = await readFile(path.join(store, "config"), "utf8").catch(() => null);
  if (config === null || /hookspath|fsckobjects|logallrefupdates\s*=\s*always/i.test(config)) return null;
  return store;
}

/** Forgets the clone's origin as this process read it, after the clone was pointed elsewhere. */
export function forgetStoreOf(clone: string): void {
  originOf.delete(path.resolve(clone));
}

/** The clone's origin when it is a bare repository on this disk (a path or a file:// URL), else null. */
export async function localStoreOf(clone: string): Promise<string | null> {
  const key = path.resolve(clone);
  if (!originOf.has(key)) originOf.set(key, await originUrl(clone).catch(() => null));
  const store = localPath(originOf.get(key) ?? null);
  return store && isBareRepository(store) ? store : null;
}

/** The folder a git URL names when it is on this disk (a path or a file:// URL), else null. */
export function localPath(url: string | null): string | null {
  if (!url) return null;
  if (url.startsWith("file://")) return fileURLToPath(url);
  return path.isAbsolute(url) ? url : null;
}
