import { open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";

/**
 * A compare-and-swap of one branch ref from this process, by git's own protocol: take
 * `<ref>.lock` with an exclusive create (git and every other writer respect it), check the ref's
 * current value (its file, else its packed-refs line), write the new value and rename the lock
 * over the ref. An update-ref process was ~10 ms of each approval, twice (docs/store.md, "Pushing
 * to a store on the same disk").
 *
 * "moved" when the ref is not at `expected` (null: it must not exist) or someone holds its lock;
 * null when this is not a plain ref file this module can write (a symbolic ref), and the caller
 * asks git.
 */
export async function swapRefFile(gitDir: string, ref: string, next: string, expected: string | null): Promise<"updated" | "moved" | null> {
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(ref) || ref.split("/").some((part) => part === "" || part.startsWith(".") || part.endsWith(".lock"))) return null;
  const refFile = path.join(gitDir, ref);
  const lockFile = `${refFile}.lock`;
  let lock;
  try {
    lock = await open(lockFile, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return "moved";
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null; // the ref's folder does not exist yet: git creates it
    throw error;
  }
  let isRenamed = false;
  try {
    const current = await currentValue(gitDir, ref, refFile);
    if (current === undefined) return null;
    if (current !== expected) return "moved";
    await lock.writeFile(`${next}\n`, "utf8");
    await lock.close();
    await rename(lockFile, refFile);
    isRenamed = true;
    return "updated";
  } finally {
    await lock.close().catch(() => undefined);
    if (!isRenamed) await rm(lockFile, { force: true });
  }
}

/** A ref's commit as its file or packed-refs line says; null when absent or symbolic (ask git then). */
export async function readRefValue(gitDir: string, ref: string): Promise<string | null> {
  return (await currentValue(gitDir, ref, path.join(gitDir, ref))) ?? null;
}

/** The ref's value, null when it does not exist, undefined when it is symbolic. */
async function currentValue(gitDir: string, ref: string, refFile: string): Promise<string | null | undefined> {
  const loose = await readFile(refFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (loose !== null) return loose.startsWith("ref:") ? undefined : loose.trim();
  const packed = await readFile(path.join(gitDir, "packed-refs"), "utf8").catch(() => "");
  for (const line of packed.split("\n")) {
    const [id, name] = line.split(" ");
    if (name === ref && id) return id;
  }
  return null;
}
