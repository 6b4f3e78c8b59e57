import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "../log";
import { collectGarbageWhenDue, compareAndSwapRef, isBareRepository, originUrl } from "./git";
import { copyLooseObjects, objectDatabaseOf } from "./git-objects";

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
 * receive hooks or object checks (they must run), or an object that is not a loose file here.
 */
export async function pushOnSameDisk(clone: string, commit: string, contents: PushContents): Promise<"pushed" | "rejected" | null> {
  const store = await sameDiskStore(clone);
  if (!store) return null;
  const [from, to] = await Promise.all([objectDatabaseOf(clone), objectDatabaseOf(store)]);
  if (!from || !to || !(await copyLooseObjects(from, to, contents.objects))) return null;
  if ((await compareAndSwapRef(store, "refs/heads/main", commit, contents.base)) === "moved") return "rejected";
  // As a push does: the clone's copy of origin's main follows, unless a fetch already moved it on.
  await compareAndSwapRef(clone, "refs/remotes/origin/main", commit, contents.base).catch(() => undefined);
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

// Hooks that git runs when it receives a push; update-ref runs none of them.
const RECEIVE_HOOKS = ["pre-receive", "update", "proc-receive", "post-receive", "post-update", "push-to-checkout"];

async function sameDiskStore(clone: string): Promise<string | null> {
  const key = path.resolve(clone);
  if (!originOf.has(key)) originOf.set(key, await originUrl(clone).catch(() => null));
  const store = localPath(originOf.get(key) ?? null);
  if (!store || !isBareRepository(store)) return null;
  if (RECEIVE_HOOKS.some((hook) => existsSync(path.join(store, "hooks", hook)))) return null;
  const config = await readFile(path.join(store, "config"), "utf8").catch(() => null);
  if (config === null || /hookspath|fsckobjects/i.test(config)) return null;
  return store;
}

function localPath(url: string | null): string | null {
  if (!url) return null;
  if (url.startsWith("file://")) return fileURLToPath(url);
  return path.isAbsolute(url) ? url : null;
}
